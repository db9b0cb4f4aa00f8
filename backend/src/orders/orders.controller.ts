import { Body, Controller, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { MSG } from '../integrations/integrations.service';
import { User } from '../users/entities/user.entity';
import { CreateOrderPrintDto, FulfilmentResponse, OrderItemIdsDto, OrderListQueryDto, OrderListResponse, OrderPrintResponse, ReviewResponse, ShipOrderDto, SyncResponse } from './dto/order.dto';
import { FULFIL_MSG, FulfilmentService } from './fulfilment.service';
import { OrderSyncService } from './order-sync.service';
import { OrdersService } from './orders.service';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { ApiErrors } from '../common/api-errors';

const integrationId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(MSG.notFound) });
const orderId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(FULFIL_MSG.notFound) });

@ApiTags('orders')
@ApiCookieAuth()
@Controller()
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly sync: OrderSyncService,
    private readonly fulfilment: FulfilmentService,
  ) {}

  @Get('orders')
  @ApiOkResponse({
    type: OrderListResponse,
    description:
      'Newest orders first by the dateType date (sort=asc: oldest first), each with its items; status is derived from the prints holding the items. Paged by page, or by cursor: startingAfter = the last _id while hasMore',
  })
  listOrders(@CurrentUser() user: User, @Query() q: OrderListQueryDto) {
    return this.orders.list(user._id, q);
  }

  @Post('orders/review')
  @HttpCode(200)
  @ApiOperation({ summary: 'What a print of these order items would get: image and size found, or what is missing' })
  @ApiOkResponse({ type: ReviewResponse })
  @ApiErrors({ status: 404, when: 'An order item is not the seller\'s or unknown', message: 'Order item not found' })
  async reviewOrderItems(@CurrentUser() user: User, @Body() dto: OrderItemIdsDto) {
    return { data: await this.orders.review(user._id, dto.orderItems) };
  }

  @Post('orders/print')
  @Idempotent()
  @ApiCreatedResponse({ type: OrderPrintResponse, description: '409 order_item_in_print when an item is already in a print (send allowReprint to print it again)' })
  @ApiErrors(
    { status: 404, when: 'An order item is not the seller\'s or unknown', message: 'Order item not found' },
    {
      status: 409,
      when: 'An item is in a print already (send allowReprint to print it again), or being added to one right now; the message names the items',
      message: 'Some order items are already in a print: "Tee" (order 1042). Remove them from the selection, or confirm to print them again.',
      code: 'order_item_in_print',
    },
  )
  async createOrderPrint(@CurrentUser() user: User, @Body() dto: CreateOrderPrintDto) {
    const r = await this.orders.createPrint(user, dto);
    return {
      _id: r.printId,
      type: r.type,
      unresolved: r.unresolved,
      message: r.unresolved.length ? 'Print created successfully. Some items still need an image or a size.' : 'Print created successfully',
    };
  }

  @Post('orders/:id/ship')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark shipped: updates the order in its shop (WooCommerce: the status chosen for the shop and a note; Etsy: a shipment, when a tracking number is given)',
    description: 'Sent through the job queue: the answer is the fulfilment as stored (usually pending). Asking again with the same details changes nothing; a failed one is sent again.',
  })
  @ApiOkResponse({ type: FulfilmentResponse, description: '400 carrier_required (a tracking number without carrier); 404 another seller\'s or unknown order; 409 already_shipped (other tracking details than those sent)' })
  @ApiErrors(
    { status: 404, when: 'Another seller\'s or an unknown order', message: FULFIL_MSG.notFound },
    { status: 409, when: 'Already marked shipped with other tracking details than those sent', message: 'This order was already marked shipped with tracking number 1Z999AA10123456784; the shop has it (or is getting it) as it was sent', code: 'already_shipped' },
  )
  async shipOrder(@CurrentUser() user: User, @Param('id', orderId) id: string, @Body() dto: ShipOrderDto) {
    const data = await this.fulfilment.markShipped(user._id, id, dto);
    return { data, message: data.status === 'fulfilled' ? 'The order is fulfilled in the shop' : 'The shop is being updated' };
  }

  @Post('orders/:id/fulfilment/retry')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a refused or failed fulfilment to the shop again (steps the shop accepted are not repeated)' })
  @ApiOkResponse({ type: FulfilmentResponse, description: '404 unknown order; 409 fulfilment_not_failed / fulfilment_not_requested' })
  @ApiErrors(
    { status: 404, when: 'Another seller\'s or an unknown order', message: FULFIL_MSG.notFound },
    { status: 409, when: 'The fulfilment did not fail', message: FULFIL_MSG.notRetryable, code: 'fulfilment_not_failed' },
    { status: 409, when: 'The order was never marked shipped', message: FULFIL_MSG.notRequested, code: 'fulfilment_not_requested' },
  )
  async retryFulfilment(@CurrentUser() user: User, @Param('id', orderId) id: string) {
    return { data: await this.fulfilment.retry(user._id, id), message: 'The shop is being updated' };
  }

  /** Spec: GET /integrations/{id}/orders syncs the orders (queued; progress arrives as order-sync-{userId}). */
  @Get('integrations/:id/orders')
  @ApiOkResponse({ type: SyncResponse, description: '400 not_connected: "Please connect your integration to sync order"' })
  syncOrders(@CurrentUser() user: User, @Param('id', integrationId) id: string) {
    return this.sync.request(user._id, id);
  }
}
