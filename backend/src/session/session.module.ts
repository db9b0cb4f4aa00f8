import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { Session } from './entities/session.entity';
import { jwtKey, SessionService } from './session.service';

/** Sessions and cookies (see SessionService); exports the JWT signer for the other short-lived cookies. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Session, User]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ secret: jwtKey(config), signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } }),
    }),
  ],
  providers: [SessionService],
  exports: [SessionService, JwtModule],
})
export class SessionModule {}
