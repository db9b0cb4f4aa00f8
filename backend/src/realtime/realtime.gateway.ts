import { Inject, Logger } from '@nestjs/common';
import { OnGatewayConnection, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { Server, Socket } from 'socket.io';
import { SessionService } from '../session/session.service';
import { RealtimeService } from './realtime.service';

/**
 * Each signed-in browser joins the room of its user; events such as `print-{userId}` are
 * emitted to that room only. The session cookie authenticates the handshake.
 */
// CORS and the Origin check of the handshake are set by AppIoAdapter (one rule with the HTTP API).
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayConnection {
  private readonly logger = new Logger('Realtime');

  @WebSocketServer()
  server: Server;

  constructor(
    private readonly sessions: SessionService,
    @Inject(RealtimeService) private readonly realtime: RealtimeService,
  ) {}

  afterInit(server: Server) {
    this.realtime.attach(server);
  }

  async handleConnection(socket: Socket) {
    const session = await this.sessions.sessionFromCookieHeader(socket.handshake.headers.cookie).catch(() => null);
    if (!session) {
      socket.disconnect(true);
      return;
    }
    const { user, sid } = session;
    // The session room lets logout close exactly this sign-in's sockets.
    await socket.join([RealtimeService.room(user._id), RealtimeService.sessionRoom(sid)]);
    this.logger.debug(`socket ${socket.id} joined user ${user._id}`);
  }
}
