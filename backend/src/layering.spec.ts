import { Linter } from 'eslint';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';

// eslint/layering.cjs is the plugin eslint.config.mjs runs; plain CommonJS, so jest loads it as it is.
const { plugin, SRC } = require('../eslint/layering.cjs');

/** The layering messages ESLint gives for `code` as if it were the file `file` under src/. */
function lint(file: string, code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { layering: plugin },
        rules: { 'layering/imports': 'error', 'layering/tables': 'error' },
      },
    ],
    { filename: join(SRC, file) },
  );
  const broken = messages.find((m) => m.fatal);
  if (broken) throw new Error(broken.message);
  return messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the layering lint rules', () => {
  describe('imports', () => {
    it('refuses a platform folder importing a feature, also as a type', () => {
      expect(lint('cpu/tasks.ts', `import { inspectUpload } from '../images/image-decode';`)).toEqual([
        expect.stringMatching(/^layering\/imports: the platform \(cpu\/\) imports no feature/),
      ]);
      expect(lint('queue/x.ts', `import type { PrintsService } from '../prints/prints.service';`)).toHaveLength(1);
      expect(lint('mail/x.ts', `export { ImagesModule } from '../images/images.module';`)).toHaveLength(1);
    });

    it('lets the platform use the platform, common/ and config/', () => {
      expect(lint('mail/x.ts', `import { JobName } from '../queue/jobs';\nimport { returned } from '../common/sql';\nimport { AppConfig } from '../config/configuration';`)).toEqual([]);
    });

    it('refuses a feature reaching into another feature, and allows its services, module, entities, DTOs and public files', () => {
      expect(lint('orders/x.ts', `import { PrintsRepository } from '../prints/print-job.repository';`)).toEqual([
        expect.stringMatching(/^layering\/imports: import prints\/ only through its module, services, entities or DTOs/),
      ]);
      expect(
        lint(
          'orders/x.ts',
          [
            `import { PrintsReadService } from '../prints/prints-read.service';`,
            `import { PrintsModule } from '../prints/prints.module';`,
            `import { PrintStatus } from '../prints/entities/print.entity';`,
            `import { printReadSql } from '../prints/print-read-model';`,
            `import { CpuPool } from '../cpu/cpu-pool';`,
          ].join('\n'),
        ),
      ).toEqual([]);
    });

    it('refuses anything but the composition root importing the composition root', () => {
      expect(lint('cpu/cpu-pool.ts', `import { cpuTasks } from '../cpu-tasks';`)).toEqual([
        expect.stringMatching(/^layering\/imports: only the composition root/),
      ]);
      expect(lint('cpu-tasks.ts', `import { inspectUpload } from './images/image-decode';`)).toEqual([]);
    });

    it('keeps the engine free of the app and of Nest', () => {
      expect(lint('gangsheet/x.ts', `import { Injectable } from '@nestjs/common';\nimport { SizesService } from '../sizes/sizes.service';`)).toHaveLength(2);
      expect(lint('images/x.ts', `import { layoutSheets } from '../gangsheet';`)).toEqual([]);
    });
  });

  describe('tables', () => {
    it("refuses SQL naming another feature's table, in a string or a template", () => {
      expect(lint('notifications/x.ts', "const q = `SELECT id FROM prints WHERE status = 'Completed'`;")).toEqual([
        expect.stringMatching(/^layering\/tables: notifications\/ queries prints's table prints/),
      ]);
      expect(lint('images/x.ts', `const q = 'SELECT 1 FROM print_items pi JOIN prints p ON p.id = pi.print_id';`)).toHaveLength(2);
      expect(lint('statistics/x.ts', "const q = `SELECT sum(prints) FROM print_counts WHERE user_id = $1`;")).toHaveLength(1);
    });

    it("refuses reading another feature's table through its entity class", () => {
      const code = [
        `import { Image } from '../images/entities/image.entity';`,
        `export const a = (m: any) => m.find(Image, { where: {} });`,
        `export const b = (db: any) => db.getRepository(Image).count();`,
        `export class C { constructor(@InjectRepository(Image) readonly images: unknown) {} }`,
        `export const d = TypeOrmModule.forFeature([Image]);`,
      ].join('\n');
      expect(lint('notifications/x.ts', code)).toEqual(Array(4).fill(expect.stringMatching(/^layering\/tables: notifications\/ (reads or writes|registers) images's table images/)));
      expect(lint('images/x.ts', code.replace('../images/entities', './entities'))).toEqual([]);
      expect(lint('notifications/x.ts', `import { ImageStatus } from '../images/entities/image.entity';\nexport const s = ImageStatus.Ready;`)).toEqual([]);
    });

    it('lets a feature query its own tables; prose and migrations do not count', () => {
      expect(lint('prints/x.ts', "const q = `SELECT 1 FROM print_items pi JOIN prints p ON p.id = pi.print_id`;")).toEqual([]);
      expect(lint('orders/x.ts', `const message = 'Remove them from prints first';`)).toEqual([]);
      expect(lint('database/migrations/1-X.ts', "const q = `UPDATE prints SET status = 'Error'`;")).toEqual([]);
    });
  });
});
