import { ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PackingOrder, packingListPdf, PackingSheet } from './packing-list';
import { printName } from './prints.rules';
import { PrintsService } from './prints.service';

export const PACKING_MSG = {
  noOrders: 'This print has no items from shop orders, so there is nothing to pack by order.',
  notLaidOut: 'The packing list is made from the printed sheets: process the print first (it is not laid out yet).',
};

interface Row {
  id: string;
  order_id: string;
  number: string;
  buyer: string | null;
  country: string | null;
  title: string;
  shop_size: string | null;
  size_name: string | null;
  size_value: string | null;
  quantity: number;
}

/** The packing list of a print made from shop orders (packing-list.ts draws it). */
@Injectable()
export class PackingListService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly prints: PrintsService,
  ) {}

  /** The seller's own print only (another seller's: 404); 409 without order items or sheets. */
  async pdf(userId: string, printId: string): Promise<{ pdf: Buffer; filename: string }> {
    const print = await this.prints.find(userId, printId, undefined, { withLayout: true });
    const rows: Row[] = await this.db.query(
      `SELECT i.id, o.id AS order_id, o.number, o.buyer_info->>'name' AS buyer, o.buyer_info->>'country' AS country,
              oi.title, oi.size AS shop_size, s.name AS size_name, s.value AS size_value, i.quantity
         FROM print_items i
         JOIN order_items oi ON oi.id = i.order_item_id
         JOIN orders o ON o.id = oi.order_id
         LEFT JOIN sizes s ON s.id = i.size_id
        WHERE i.print_id = $1
        ORDER BY o.integration_order_created_date, o.number, i.created_at`,
      [print._id],
    );
    if (!rows.length) throw new ConflictException({ message: PACKING_MSG.noOrders, code: 'no_order_items' });
    if (!print.layout?.sheets?.length) throw new ConflictException({ message: PACKING_MSG.notLaidOut, code: 'not_laid_out' });
    const width = Number(print.settings?.width ?? 0);
    const sheets: PackingSheet[] = print.layout.sheets.map((s, i) => {
      // layouts stored before copies were numbered: in the order they were placed
      const next = new Map<string, number>();
      return {
        n: i + 1,
        width: width || s.widthPx / (s.lengthPx / Math.max(s.length, 1e-6)),
        length: s.length,
        placements: s.placements.map((p) => {
          const copy = p.copy ?? next.get(p.itemId) ?? 0;
          next.set(p.itemId, copy + 1);
          return { itemId: p.itemId, copy, x: p.x, y: p.y, width: p.width, height: p.height };
        }),
      };
    });
    const orders = new Map<string, PackingOrder>();
    for (const r of rows) {
      let o = orders.get(r.order_id);
      if (!o) orders.set(r.order_id, (o = { number: r.number, buyer: r.buyer ?? '', country: r.country ?? '', items: [] }));
      const size = r.size_name ? `${r.size_name}${r.size_value !== null ? ` (${Number(r.size_value)} in)` : ''}` : (r.shop_size ?? '-');
      o.items.push({ itemId: r.id, title: r.title, size, copies: r.quantity });
    }
    const name = printName(print._id);
    const pdf = await packingListPdf({ title: name, sheets, orders: [...orders.values()] });
    return { pdf, filename: `${name.replace(/\s+/g, '-').toLowerCase()}-packing-list.pdf` };
  }
}
