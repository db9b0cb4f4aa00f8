/**
 * The directory the user ran npm from. npm runs workspace scripts inside the package,
 * so command-line tools (the gangsheet CLI) resolve file arguments against INIT_CWD,
 * which npm sets to the original directory.
 */
export function invocationDir(): string {
  return process.env.INIT_CWD || process.cwd();
}
