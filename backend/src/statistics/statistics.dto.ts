import { ApiProperty } from '@nestjs/swagger';

/** The dashboard cards. */
export class StatisticsDto {
  @ApiProperty({ description: 'Prints In Draft (the card links to /prints?status=In Draft)' }) pendingPrints: number;
  @ApiProperty({ description: 'All prints, whatever their status' }) totalPrints: number;
  @ApiProperty({ description: 'Distinct images placed on at least one processed (Completed) print' }) printedImages: number;
  @ApiProperty({ description: 'Credits spent on processing, net of refunds' }) usedCredits: number;
  @ApiProperty({ description: 'Integration orders still Pending' }) pendingOrders: number;
  @ApiProperty({ description: 'All integration orders' }) totalOrders: number;
  @ApiProperty({ description: 'Integration orders Completed (printed)' }) completedOrders: number;
  @ApiProperty({ description: 'Connected shops' }) totalIntegrations: number;
  @ApiProperty({ description: 'Orders with an item in the production queue (in no live print)' }) queuedOrders: number;
  @ApiProperty({ description: 'Orders with an item in a print not yet printed (In Draft or Processing)' }) inProductionOrders: number;
  @ApiProperty({ description: 'Orders marked fulfilled in their shop (after a completed batch, or Mark shipped)' }) fulfilledOrders: number;
}

export class StatisticsResponse {
  @ApiProperty({ type: StatisticsDto }) data: StatisticsDto;
}
