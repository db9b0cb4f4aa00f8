import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { MessageResponse } from '../common/responses';
import { Idempotent } from '../idempotency/idempotency.decorators';
import {
  CreateUserDto,
  CreditHistoryQueryDto,
  CreditHistoryResponse,
  GrantCreditDto,
  toUserDto,
  UpdateCreditDto,
  UpdateStatusDto,
  UpdateUserDto,
  UserListQueryDto,
  UserListResponse,
  UserResponse,
} from './dto/user.dto';
import { Role, User } from './entities/user.entity';
import { UsersService } from './users.service';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('User not found') });

@ApiTags('users')
@ApiCookieAuth()
@Roles(Role.Admin)
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOkResponse({ type: UserListResponse })
  async listUsers(@Query() q: UserListQueryDto) {
    const page = await this.users.list(q);
    return { data: page.data.map(toUserDto), pagination: page.pagination };
  }

  @Get(':id')
  @ApiOkResponse({ type: UserResponse })
  async getUser(@Param('id', uuid) id: string) {
    return { data: toUserDto(await this.users.get(id)) };
  }

  @Post()
  @Idempotent()
  @ApiOkResponse({ type: UserResponse })
  async createUser(@Body() dto: CreateUserDto) {
    return { data: toUserDto(await this.users.create(dto)), message: 'User created successfully' };
  }

  @Put(':id')
  @ApiOkResponse({ type: UserResponse })
  async updateUser(@Param('id', uuid) id: string, @Body() dto: UpdateUserDto, @CurrentUser() actor: User) {
    return { data: toUserDto(await this.users.update(id, dto, actor)), message: 'User updated successfully' };
  }

  @Put(':id/status')
  @ApiOkResponse({ type: UserResponse })
  async updateUserStatus(@Param('id', uuid) id: string, @Body() dto: UpdateStatusDto, @CurrentUser() actor: User) {
    return { data: toUserDto(await this.users.setStatus(id, dto.status, actor)), message: 'Status updated successfully' };
  }

  @Put(':id/credit')
  @ApiOperation({ summary: 'Set the available balance (a correction); the change is kept in the credit history with the admin and the reason' })
  @ApiOkResponse({ type: UserResponse })
  async updateUserCredit(@Param('id', uuid) id: string, @Body() dto: UpdateCreditDto, @CurrentUser() actor: User) {
    return { data: toUserDto(await this.users.setCredit(id, dto.availableCredits, dto.reason, actor)), message: 'Credit added successfully' };
  }

  @Post(':id/credit/grant')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({ summary: 'Give credits (no money moved, so not a payment); kept in the credit history with the admin and the reason' })
  @ApiOkResponse({ type: UserResponse })
  async grantUserCredit(@Param('id', uuid) id: string, @Body() dto: GrantCreditDto, @CurrentUser() actor: User) {
    const user = await this.users.grantCredit(id, dto.credits, dto.reason, actor);
    return { data: toUserDto(user), message: `${dto.credits.toLocaleString('en-US')} credits added to ${user.username}` };
  }

  @Get(':id/credit/history')
  @ApiOperation({ summary: "Every change of the user's credits (payments, grants, corrections, print charges and refunds), newest first" })
  @ApiOkResponse({ type: CreditHistoryResponse })
  creditHistory(@Param('id', uuid) id: string, @Query() q: CreditHistoryQueryDto) {
    return this.users.creditHistory(id, q.page ?? 1, q.limit ?? 10);
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageResponse })
  async deleteUser(@Param('id', uuid) id: string, @CurrentUser() actor: User) {
    await this.users.remove(id, actor);
    return { message: 'User deleted successfully' };
  }
}
