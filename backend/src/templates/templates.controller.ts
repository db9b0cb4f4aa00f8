import { Body, Controller, Delete, Get, NotFoundException, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { TestMode } from '../api-keys/test-mode.decorators';
import { ApiErrors } from '../common/api-errors';
import { MessageResponse } from '../common/responses';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { PrintResponse } from '../prints/dto/print.dto';
import { PrintsService } from '../prints/prints.service';
import { User } from '../users/entities/user.entity';
import {
  CreatePrintFromTemplateDto, CreateTemplateDto, RenameTemplateDto, TemplateListQueryDto, TemplateListResponse, TemplateResponse, toTemplateDto,
} from './dto/template.dto';
import { TEMPLATE_MSG, TemplatesService } from './templates.service';

const templateId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(TEMPLATE_MSG.notFound) });
const VALIDATION = { status: 400, when: 'The request is not valid (validation_failed, one entry per field in errors)', message: 'Name is required', code: 'validation_failed' };

@ApiTags('templates')
@ApiCookieAuth()
@Controller('templates')
export class TemplatesController {
  constructor(
    private readonly templates: TemplatesService,
    private readonly prints: PrintsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Your sheet templates; default limit 10, newest first (sortBy name or createdAt; search by name)' })
  @ApiOkResponse({ type: TemplateListResponse })
  listTemplates(@CurrentUser() user: User, @Query() q: TemplateListQueryDto) {
    return this.templates.list(user._id, q);
  }

  @Get(':id')
  @ApiOkResponse({ type: TemplateResponse })
  async getTemplate(@CurrentUser() user: User, @Param('id', templateId) id: string) {
    return { data: toTemplateDto(await this.templates.get(user._id, id)) };
  }

  @Post()
  @Idempotent()
  @ApiOperation({
    summary:
      "Save a template: from one of your prints' layout (printId; one sheet with `sheet`, else all), or from explicit settings and slots (the layout editor's arrangement)",
  })
  @ApiCreatedResponse({ type: TemplateResponse })
  @ApiErrors(
    VALIDATION,
    { status: 400, when: 'A slot lies outside the margins or beyond the maximum length', message: "The slot 2 (\"back\") lies outside the sheet's margins.", code: 'slot_off_sheet' },
    { status: 400, when: 'printId with a sheet the layout does not have', message: 'The print has 1 sheet; sheet 3 does not exist.', code: 'no_such_sheet' },
    { status: 400, when: 'printId: an item cannot be laid out (image not ready, larger than the sheet)', message: 'Fix the items before editing the layout: …', code: 'image_not_ready' },
    { status: 404, when: 'printId is not one of your prints', message: 'Print not found', code: 'not_found' },
    { status: 409, when: 'printId: nothing of the print is laid out', message: TEMPLATE_MSG.nothingLaidOut, code: 'nothing_laid_out' },
  )
  async createTemplate(@CurrentUser() user: User, @Body() dto: CreateTemplateDto) {
    return { data: toTemplateDto(await this.templates.create(user._id, dto)), message: 'Template saved' };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a template' })
  @ApiOkResponse({ type: TemplateResponse })
  async renameTemplate(@CurrentUser() user: User, @Param('id', templateId) id: string, @Body() dto: RenameTemplateDto) {
    return { data: toTemplateDto(await this.templates.rename(user._id, id, dto.name)), message: 'Template renamed' };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a template (prints made from it are not touched)' })
  @ApiOkResponse({ type: MessageResponse })
  async deleteTemplate(@CurrentUser() user: User, @Param('id', templateId) id: string) {
    await this.templates.remove(user._id, id);
    return { message: 'Template deleted' };
  }

  @Post(':id/prints')
  @Idempotent()
  @ApiOperation({
    summary:
      "A new draft print with your artwork in the template's slots: one copy per filled slot, turned as the slot and centred in its box, saved as the print's edited layout (pinned); the template's sheet settings",
  })
  @ApiCreatedResponse({ type: PrintResponse })
  @ApiErrors(
    VALIDATION,
    { status: 400, when: 'An artwork is larger than its slot at the chosen size', message: '"star" is 11 × 11 in as placed, larger than slot 2 ("back") (10 × 4 in). Pick a smaller size.', code: 'slot_too_small' },
    { status: 400, when: 'Copies in their slots do not keep the gap (by ink for "shape" templates), or lie off the sheet', message: 'The artwork does not fit the template at slot 1 ("front") and slot 2 ("back"): copy 1 of "star" and copy 1 of "logo" are closer than the 0.25 in gap.', code: 'layout_invalid' },
    { status: 400, when: 'No size given and you have no size of the slot\'s printed width', message: 'Choose a size for the slot 3 ("sleeve"): you have no 3.5 in size.', code: 'size_required' },
    { status: 400, when: 'A slot number the template does not have, or one slot filled twice', message: 'There is no slot 5: the template has 3 slots.', code: 'unknown_slot' },
    { status: 400, when: 'An image is not ready to print yet', message: 'Fix the items before editing the layout: …', code: 'image_not_ready' },
    { status: 404, when: 'The template, an image or a size is not yours', message: TEMPLATE_MSG.notFound, code: 'not_found' },
  )
  async createPrintFromTemplate(@CurrentUser() user: User, @Param('id', templateId) id: string, @Body() dto: CreatePrintFromTemplateDto, @TestMode() test: boolean) {
    const print = await this.templates.createPrint(user._id, id, dto, test);
    return { data: this.prints.dto(print), message: 'Print created from the template. Check it, then process it.' };
  }
}
