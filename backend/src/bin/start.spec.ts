import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** `npm start` (bin/start.js) rebuilds only what changed since the last build. */
describe('npm start: what is out of date', () => {
  const { uiIsCurrent, apiIsCurrent } = require(path.resolve(__dirname, '..', '..', 'bin', 'start.js')) as {
    uiIsCurrent(root: string): boolean;
    apiIsCurrent(root: string): boolean;
  };
  let root: string;
  let clock: number;

  /** Writes a file with a modification time after every one before it. */
  function write(rel: string, text = 'x') {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    clock += 10;
    fs.utimesSync(p, clock, clock);
  }

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-start-'));
    clock = Math.floor(Date.now() / 1000) - 100_000;
    write('package-lock.json');
    write('frontend/package.json');
    write('frontend/src/App.tsx');
    write('frontend/src/pages/a/Page.tsx');
    write('backend/src/main.ts');
    write('backend/src/x/y.ts');
    write('backend/src/x/y.spec.ts');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a fresh clone builds both; after a build neither; an edited source rebuilds its side only', () => {
    expect(uiIsCurrent(root)).toBe(false);
    expect(apiIsCurrent(root)).toBe(false);
    write('frontend/dist/index.html');
    write('backend/dist/x/y.js');
    write('backend/dist/main.js');
    expect(uiIsCurrent(root)).toBe(true);
    expect(apiIsCurrent(root)).toBe(true);

    write('frontend/src/pages/a/Page.tsx', 'changed');
    expect(uiIsCurrent(root)).toBe(false);
    expect(apiIsCurrent(root)).toBe(true);
    write('frontend/dist/index.html');

    write('backend/src/x/y.ts', 'changed');
    expect(apiIsCurrent(root)).toBe(false);
    expect(uiIsCurrent(root)).toBe(true);
  });

  it('a new source file without a build, or new dependencies, rebuild', () => {
    write('frontend/dist/index.html');
    write('backend/dist/x/y.js');
    write('backend/dist/main.js');
    write('backend/src/z.ts');
    expect(apiIsCurrent(root)).toBe(false);
    write('backend/dist/z.js');
    expect(apiIsCurrent(root)).toBe(true);
    write('package-lock.json', 'upgraded');
    expect(apiIsCurrent(root)).toBe(false);
    expect(uiIsCurrent(root)).toBe(false);
  });
});
