import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseIntPipe, ParseUUIDPipe, PipeTransform, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiSheetFile, sendSheetFile } from './send-sheet-file';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { MessageResponse } from '../common/responses';
import { Role, User } from '../users/entities/user.entity';
import { TestMode } from '../api-keys/test-mode.decorators';
import { PrintType } from './entities/print.entity';
import {
  CreatePrintDto,
  PrintItemInput,
  PrintListQueryDto,
  PrintListResponse,
  PrintPreviewResponse,
  PreviewDraftDto,
  PrintResponse,
  ProcessPrintDto,
  UpdatePrintItemDto,
} from './dto/print.dto';
import { LayoutCheckResponse, LayoutShapesResponse, PrintLayoutResponse, SaveLayoutDto } from './dto/print-layout.dto';
import { PrintDraftsService } from './print-drafts.service';
import { NOT_EDITABLE, PrintLayoutService } from './print-layout.service';
import { PrintFilesService } from './print-files.service';
import { PrintPreviewService } from './print-preview.service';
import { PrintProcessingService } from './print-processing.service';
import { MSG } from './prints.rules';
import { PrintsService } from './prints.service';
import { PACKING_MSG, PackingListService } from './packing-list.service';
import { ApiErrors } from '../common/api-errors';

/** What both spellings of the process route answer when nothing could be charged. */
const PROCESS_ERRORS = [
  { status: 503, when: 'The job queue cannot take the print now; nothing was charged', message: 'Processing is not available right now; your credits were not charged. Please try again.' },
  { status: 503, when: 'The server is short of disk space for this print; nothing was charged', message: 'The server is short of disk space; this print cannot be processed right now. Nothing was charged.', code: 'insufficient_storage' },
  { status: 503, when: 'The database is saturated: retry shortly', message: 'The server is busy. Please try again in a moment.', code: 'busy' },
];

/** The 409 of the layout routes: only a print that is In Draft, Deleted or Error has an editable layout. */
const layoutNotEditable = ApiConflictResponse({
  description: 'The print is not In Draft, Deleted or Error (code invalid_status)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example: { statusCode: 409, message: NOT_EDITABLE, code: 'invalid_status' } } },
});
const printId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Print not found') });
const itemId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Print item not found') });
const FORCE = 'force';
const itemIdOrForce: PipeTransform<string, Promise<string>> = { transform: async (v, meta) => (v === FORCE ? v : itemId.transform(v, meta)) };
const userId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('User not found') });
const sheetNo = new ParseIntPipe({ exceptionFactory: () => new NotFoundException('File not found') });

@ApiTags('prints')
@ApiCookieAuth()
@Controller('print')
export class PrintsController {
  constructor(
    private readonly prints: PrintsService,
    private readonly drafts: PrintDraftsService,
    private readonly previews: PrintPreviewService,
    private readonly processing: PrintProcessingService,
    private readonly files: PrintFilesService,
    private readonly packing: PackingListService,
    private readonly layouts: PrintLayoutService,
  ) {}

  @Get()
  @ApiOkResponse({ type: PrintListResponse })
  listPrints(@CurrentUser() user: User, @Query() q: PrintListQueryDto) {
    return this.prints.list(user._id, q);
  }

  @Get('user/:userId')
  @Roles(Role.Admin)
  @ApiOperation({ summary: "A user's prints (admin)" })
  @ApiOkResponse({ type: PrintListResponse })
  listUserPrints(@Param('userId', userId) id: string, @Query() q: PrintListQueryDto) {
    return this.prints.listForUser(id, q);
  }

  @Get(':id')
  @ApiOperation({ summary: "A print with its items; admins may read any user's print (changes stay owner-only)" })
  @ApiOkResponse({ type: PrintResponse })
  async getPrint(@CurrentUser() user: User, @Param('id', printId) id: string) {
    return { data: this.prints.dto(await this.prints.detail(user.role === Role.Admin ? null : user._id, id)) };
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a print (In Draft, Manual); the same image and size twice are merged' })
  @ApiOkResponse({ type: PrintResponse })
  async createPrint(@CurrentUser() user: User, @Body() dto: CreatePrintDto, @TestMode() test: boolean) {
    return { data: this.prints.dto(await this.drafts.create(user._id, dto, PrintType.Manual, test)), message: 'Print created successfully' };
  }

  @Post(':id/duplicate')
  @Idempotent()
  @ApiOperation({ summary: 'A new draft (Manual) with the items and sheet settings of this print, any status; items whose design or size was deleted are left out' })
  @ApiCreatedResponse({ type: PrintResponse })
  @ApiConflictResponse({
    description: 'Every design or size of the print was deleted',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        example: { statusCode: 409, message: MSG.nothingToDuplicate, code: 'nothing_to_duplicate' },
      },
    },
  })
  async duplicatePrint(@CurrentUser() user: User, @Param('id', printId) id: string, @TestMode() test: boolean) {
    const { print, leftOut } = await this.drafts.duplicate(user._id, id, test);
    const message = leftOut
      ? `Print duplicated. ${leftOut} item${leftOut === 1 ? ' was' : 's were'} left out: the design or size was deleted.`
      : 'Print duplicated';
    return { data: this.prints.dto(print), message };
  }

  @Post(':id/printItem')
  @Idempotent()
  @ApiOperation({ summary: "Add an item; the same image and size again adds to that item's quantity" })
  @ApiOkResponse({ type: PrintResponse })
  async addPrintItem(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: PrintItemInput) {
    return { data: this.prints.dto(await this.drafts.addItem(user._id, id, dto)), message: 'Image added to print' };
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'The real layout of items not saved as a print yet (manual create); nothing is stored or charged' })
  @ApiOkResponse({ type: PrintPreviewResponse })
  async previewDraftPrint(@CurrentUser() user: User, @Body() dto: PreviewDraftDto) {
    return { data: await this.previews.previewDraft(user._id, dto) };
  }

  @Post(':id/preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'The real layout for the current items and settings (fast, nothing charged)' })
  @ApiOkResponse({ type: PrintPreviewResponse })
  async previewPrint(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: ProcessPrintDto) {
    return { data: await this.previews.preview(user._id, id, dto) };
  }

  @Post(':id/proccess')
  @Idempotent()
  @ApiOperation({ summary: 'Charge the credits and start processing (spelled as the spec; /process is the same)' })
  @ApiOkResponse({ type: PrintResponse })
  @ApiErrors(...PROCESS_ERRORS)
  async proccessPrint(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: ProcessPrintDto, @TestMode() test: boolean) {
    return this.process(user, id, dto, test);
  }

  @Post(':id/process')
  @Idempotent()
  @ApiOperation({ summary: 'Charge the credits and start processing' })
  @ApiOkResponse({ type: PrintResponse })
  @ApiErrors(...PROCESS_ERRORS)
  async processPrint(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: ProcessPrintDto, @TestMode() test: boolean) {
    return this.process(user, id, dto, test);
  }

  private async process(user: User, id: string, dto: ProcessPrintDto, testMode: boolean) {
    const print = await this.processing.startProcessing(user, id, dto ?? {}, testMode);
    return {
      data: this.prints.dto(print),
      message: 'Your images are being processed. We will inform you by email when the process is complete.',
    };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop a Processing print: back to In Draft, credits refunded, files of the attempt discarded' })
  @ApiOkResponse({ type: PrintResponse })
  async cancelPrint(@CurrentUser() user: User, @Param('id', printId) id: string) {
    return { data: this.prints.dto(await this.processing.cancel(user._id, id)), message: 'Processing cancelled. The print is back in draft and your credits were refunded.' };
  }

  @Get(':id/files/:n')
  @ApiOperation({ summary: 'Download sheet n (1-based) as PNG; owner or admin only' })
  @ApiSheetFile('image/png')
  async downloadPrintFile(@CurrentUser() user: User, @Param('id', printId) id: string, @Param('n', sheetNo) n: number, @Res() reply: FastifyReply) {
    const f = await this.files.sheetFile(user, id, n, 'png');
    await sendSheetFile(reply, f, { 'Content-Disposition': `attachment; filename="${f.name}"`, 'Cache-Control': 'private, no-store' });
  }

  @Get(':id/files/:n/pdf')
  @ApiOperation({ summary: 'Download sheet n (1-based) as PDF, when the print was processed with PDF; owner or admin only' })
  @ApiSheetFile('application/pdf')
  async downloadPrintPdf(@CurrentUser() user: User, @Param('id', printId) id: string, @Param('n', sheetNo) n: number, @Res() reply: FastifyReply) {
    const f = await this.files.sheetFile(user, id, n, 'pdf');
    await sendSheetFile(reply, f, { 'Content-Disposition': `attachment; filename="${f.name}"`, 'Cache-Control': 'private, no-store' });
  }

  @Get(':id/packing-list')
  @ApiOperation({
    summary:
      'Packing list (PDF) of a print made from shop orders: per sheet a map with numbered positions, then a table by order (number, buyer, ship-to country, items with size, copies and positions); owner only',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The packing list', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } })
  @ApiConflictResponse({
    description: 'The print has no items from shop orders (no_order_items), or is not laid out yet: not processed (not_laid_out)',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        example: { statusCode: 409, message: PACKING_MSG.noOrders, code: 'no_order_items' },
      },
    },
  })
  async packingList(@CurrentUser() user: User, @Param('id', printId) id: string, @Res() reply: FastifyReply) {
    const { pdf, filename } = await this.packing.pdf(user._id, id);
    reply.headers({ 'Content-Type': 'application/pdf', 'Content-Length': String(pdf.length), 'Content-Disposition': `inline; filename="${filename}"`, 'Cache-Control': 'no-store' });
    await reply.send(pdf);
  }

  @Get(':id/files/:n/preview')
  @ApiOperation({ summary: 'Small WebP preview of sheet n; owner or admin only' })
  @ApiSheetFile('image/webp')
  async downloadPrintPreview(@CurrentUser() user: User, @Param('id', printId) id: string, @Param('n', sheetNo) n: number, @Res() reply: FastifyReply) {
    const f = await this.files.sheetFile(user, id, n, 'preview');
    await sendSheetFile(reply, f, { 'Content-Disposition': `inline; filename="${f.name}"`, 'Cache-Control': 'private, max-age=300' });
  }

  @Delete(':id/force')
  @ApiOperation({ summary: 'Remove the print, its items and files (a DELETE: a GET must never have side effects)' })
  @ApiOkResponse({ type: MessageResponse })
  async forceDeletePrint(@CurrentUser() user: User, @Param('id', printId) id: string) {
    await this.files.forceDelete(user._id, id);
    return { message: 'Print Deleted Successfully' };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove only the sheet files: status Deleted, can be processed again' })
  @ApiOkResponse({ type: PrintResponse })
  async deletePrint(@CurrentUser() user: User, @Param('id', printId) id: string) {
    return { data: this.prints.dto(await this.files.deleteFiles(user._id, id)), message: 'Print Deleted Successfully' };
  }

  @Get(':id/layout')
  @ApiOperation({ summary: 'The edited layout as saved (with the settings it was made for); data null when the print has none' })
  @ApiOkResponse({ type: PrintLayoutResponse })
  async getLayout(@CurrentUser() user: User, @Param('id', printId) id: string) {
    return { data: await this.layouts.get(user._id, id) };
  }

  @Put(':id/layout')
  @ApiOperation({
    summary:
      'Save an edited layout (In Draft or Deleted; owner only). Checked first: every copy once, inside the margins and the maximum length, no two copies closer than the gap (by ink for "shape" prints); 400 with `problems` naming the copies otherwise',
  })
  @ApiOkResponse({ type: PrintLayoutResponse })
  @ApiBadRequestResponse({
    description: 'The layout has problems (code layout_invalid); `problems` lists them with the copies concerned',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        example: {
          statusCode: 400,
          code: 'layout_invalid',
          message: 'The layout cannot be saved: copy 1 of "logo.png" and copy 2 of "logo.png" are closer than the 0.25 in gap.',
          problems: [{ code: 'too_close', copies: [{ itemId: '…', copy: 0 }, { itemId: '…', copy: 1 }], message: 'copy 1 of "logo.png" and copy 2 of "logo.png" are closer than the 0.25 in gap.' }],
        },
      },
    },
  })
  @layoutNotEditable
  async saveLayout(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: SaveLayoutDto) {
    return { data: await this.layouts.save(user._id, id, dto), message: 'Layout saved. Preview, cost and processing use it until the items or sheet settings change.' };
  }

  @Delete(':id/layout')
  @ApiOperation({ summary: "Drop the edited layout: the engine lays the print out again" })
  @ApiOkResponse({ type: MessageResponse })
  @layoutNotEditable
  async discardLayout(@CurrentUser() user: User, @Param('id', printId) id: string) {
    await this.layouts.discard(user._id, id);
    return { message: 'Edited layout discarded' };
  }

  @Post(':id/layout/check')
  @HttpCode(200)
  @ApiOperation({ summary: "An edited layout's problems, without saving it (the editor's live check)" })
  @ApiOkResponse({ type: LayoutCheckResponse })
  @layoutNotEditable
  async checkLayout(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: SaveLayoutDto) {
    return { data: { problems: await this.layouts.check(user._id, id, dto) } };
  }

  @Post(':id/layout/shapes')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Each design's footprint and ink mask for these sheet settings, in printed pixels, and the engine's grid: what the editor draws as the copies' outlines and checks the gap with while dragging (nothing is stored)",
  })
  @ApiOkResponse({ type: LayoutShapesResponse })
  @ApiErrors({ status: 400, when: 'The print has no items, or an item is not ready to lay out', message: MSG.noItems, code: 'no_items' })
  @layoutNotEditable
  async layoutShapes(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: ProcessPrintDto) {
    return { data: await this.layouts.shapes(user._id, id, dto) };
  }

  @Post(':id/layout/renest')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Lay every copy that is not pinned out again around the pinned ones (copies with pinned: true), in one search of the engine; nothing is saved',
  })
  @ApiOkResponse({ type: PrintLayoutResponse })
  @layoutNotEditable
  async renestLayout(@CurrentUser() user: User, @Param('id', printId) id: string, @Body() dto: SaveLayoutDto) {
    return { data: await this.layouts.renest(user._id, id, dto) };
  }

  @Put(':id/:itemId')
  @ApiOperation({ summary: 'Change an item (image, size, quantity ≥ 1)' })
  @ApiOkResponse({ type: PrintResponse })
  async updatePrintItem(@CurrentUser() user: User, @Param('id', printId) id: string, @Param('itemId', itemId) item: string, @Body() dto: UpdatePrintItemDto) {
    return { data: this.prints.dto(await this.drafts.updateItem(user._id, id, item, dto)), message: 'Print item updated' };
  }

  /**
   * `DELETE :id/force` and this route share a shape: whichever the router tries first, "force"
   * ends in forceDeletePrint, so the order of the two declarations does not matter.
   */
  @Delete(':id/:itemId')
  @ApiOkResponse({ type: PrintResponse })
  async deletePrintItem(@CurrentUser() user: User, @Param('id', printId) id: string, @Param('itemId', itemIdOrForce) item: string) {
    if (item === FORCE) return this.forceDeletePrint(user, id);
    return { data: this.prints.dto(await this.drafts.removeItem(user._id, id, item)), message: 'Print item deleted' };
  }
}
