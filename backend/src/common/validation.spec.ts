import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { CursorQueryDto } from './pagination';
import { createValidationPipe } from './validation';

class NeedsName {
  @IsDefined()
  @IsString()
  name?: string;
}

class Optional {
  @IsOptional()
  @IsString()
  name?: string;
}

/** The global pipe's shortcut for a query string without parameters changes no answer. */
describe('validation pipe: empty queries', () => {
  const query = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype });

  it('answers a fresh instance of the query class every time, validated or not', async () => {
    const pipe = createValidationPipe();
    const first = await pipe.transform({}, query(CursorQueryDto));
    const second = await pipe.transform(Object.create(null), query(CursorQueryDto));
    expect(first).toBeInstanceOf(CursorQueryDto);
    expect(second).toBeInstanceOf(CursorQueryDto);
    expect(second).not.toBe(first);
    expect({ ...second }).toEqual({ ...first });
  });

  it('still validates a query with parameters, and an empty query a class refuses', async () => {
    const pipe = createValidationPipe();
    await pipe.transform({}, query(CursorQueryDto));
    await expect(pipe.transform({ page: 'x' }, query(CursorQueryDto))).rejects.toBeInstanceOf(BadRequestException);
    for (let n = 0; n < 2; n++) await expect(pipe.transform({}, query(NeedsName))).rejects.toBeInstanceOf(BadRequestException);
    expect(await pipe.transform({}, query(Optional))).toBeInstanceOf(Optional);
    expect(await pipe.transform({ name: 'a' }, query(Optional))).toMatchObject({ name: 'a' });
  });
});
