import { StreamableFile } from '@nestjs/common';
import type { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Response } from 'express';

const expressJson = express.response.json;

/**
 * A handler's object is answered as `res.json` would answer it (the same body, Content-Type
 * and Content-Length) but written directly: Express's `res.json`/`res.send` look up settings,
 * parse and format the Content-Type again and copy the body into a Buffer on every answer.
 * Everything else takes Nest's own reply: no body, a file stream, an Error, bytes, a
 * Content-Type or validator header a handler set, the statuses Express answers without a body
 * (204, 205, 304), and a response whose `res.json` was wrapped (the tests' contract check).
 * Assumes the app sends no ETag (see configureApp).
 */
export function answerJsonDirectly(adapter: ExpressAdapter): void {
  const reply = adapter.reply.bind(adapter);
  adapter.reply = (res: Response, body: unknown, statusCode?: number) => {
    if (
      body === null ||
      typeof body !== 'object' ||
      body instanceof StreamableFile ||
      body instanceof Error ||
      ArrayBuffer.isView(body) ||
      res.json !== expressJson ||
      res.getHeader('Content-Type') !== undefined ||
      res.getHeader('ETag') !== undefined ||
      res.getHeader('Last-Modified') !== undefined
    )
      return reply(res, body, statusCode);
    const status = statusCode || res.statusCode;
    if (status === 204 || status === 205 || status === 304) return reply(res, body, statusCode);
    const json = JSON.stringify(body);
    if (json === undefined) return reply(res, body, statusCode);
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(json);
  };
}
