import { Controller, Get } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { User } from '../users/entities/user.entity';
import { StatisticsResponse } from './statistics.dto';
import { StatisticsService } from './statistics.service';

@ApiTags('statistics')
@ApiCookieAuth()
@Controller('statistics')
export class StatisticsController {
  constructor(private readonly statistics: StatisticsService) {}

  /** The caller's own figures (an admin sees their own too; the users screens show others'). */
  @Get()
  @ApiOkResponse({ type: StatisticsResponse })
  async getStatistics(@CurrentUser() user: User) {
    return { data: await this.statistics.forUser(user._id) };
  }
}
