import { Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseIntPipe, ParseUUIDPipe, Post, Res, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { ApiSheetFile, sendSheetFile } from './send-sheet-file';
import { CurrentUser, Public } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { PrintFileFormat } from '../sheet-settings/entities/sheet-settings.entity';
import { User } from '../users/entities/user.entity';
import { ShareLinksResponse } from './dto/print-share.dto';
import { PrintSharesService, SHARE_MSG } from './print-shares.service';
import { MSG } from './prints.rules';

const printId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(MSG.notFound) });
const sheetNo = new ParseIntPipe({ exceptionFactory: () => new NotFoundException('File not found') });

const errorDoc = (status: number, description: string, message: string, code?: string) =>
  ApiResponse({
    status,
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example: { statusCode: status, message, ...(code ? { code } : {}) } } },
  });

/**
 * Share links (print-shares.service.ts): the owner (or an admin) makes and revokes them
 * under /api/print/{id}/share; anyone holding one downloads under /api/shared/{token}, with
 * no session, limited per client IP like the other public routes. Registered before
 * PrintsController so DELETE /print/{id}/share is never taken for an item id.
 */
@ApiTags('prints')
@Controller()
export class PrintSharesController {
  constructor(private readonly shares: PrintSharesService) {}

  @Post('print/:id/share')
  @HttpCode(200)
  @ApiCookieAuth()
  @ApiOperation({ summary: "Links to the print's sheet files that work without an account until the files' retention ends (owner or admin)" })
  @ApiOkResponse({ type: ShareLinksResponse })
  @errorDoc(409, 'The print is not Completed', SHARE_MSG.notShareable, 'invalid_status')
  @errorDoc(410, 'The files are deleted or past their retention', SHARE_MSG.filesGone)
  async createShareLinks(@CurrentUser() user: User, @Param('id', printId) id: string) {
    return { data: await this.shares.create(user, id), message: 'Share links created' };
  }

  @Delete('print/:id/share')
  @ApiCookieAuth()
  @ApiOperation({ summary: 'Revoke every share link of the print made so far (owner or admin); new links can be made afterwards' })
  @ApiOkResponse({ type: MessageResponse })
  async revokeShareLinks(@CurrentUser() user: User, @Param('id', printId) id: string) {
    await this.shares.revoke(user, id);
    return { message: SHARE_MSG.revokedAll };
  }

  @Get('shared/:token/files/:n')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Sheet n (1-based) as PNG through a share link; no account needed' })
  @ApiSheetFile('image/png')
  @errorDoc(404, 'The link is not valid', SHARE_MSG.invalid)
  @errorDoc(410, 'The link was revoked or expired, or the files were deleted', SHARE_MSG.revoked)
  @errorDoc(429, 'Too many requests from this address', 'Too many attempts. Please try again later.')
  async downloadSharedFile(@Param('token') token: string, @Param('n', sheetNo) n: number, @Res() reply: FastifyReply) {
    return this.send(reply, token, n, 'png');
  }

  @Get('shared/:token/files/:n/pdf')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Sheet n (1-based) as PDF through a share link, when the print was processed with PDF; no account needed' })
  @ApiSheetFile('application/pdf')
  @errorDoc(404, 'The link is not valid, or the print has no PDF', SHARE_MSG.invalid)
  @errorDoc(410, 'The link was revoked or expired, or the files were deleted', SHARE_MSG.expired)
  @errorDoc(429, 'Too many requests from this address', 'Too many attempts. Please try again later.')
  async downloadSharedPdf(@Param('token') token: string, @Param('n', sheetNo) n: number, @Res() reply: FastifyReply) {
    return this.send(reply, token, n, 'pdf');
  }

  private async send(reply: FastifyReply, token: string, n: number, format: PrintFileFormat) {
    const f = await this.shares.sharedFile(token, n, format);
    await sendSheetFile(reply, f, {
      'Content-Disposition': `attachment; filename="${f.name}"`,
      // Never kept by a browser or proxy: a revoked link must stop working at once.
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
    });
  }
}
