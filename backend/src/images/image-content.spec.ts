import { svgBomb } from '../../test/fixtures/images';
import { svgProblem, UploadError } from './image-content';

const svg = (inner: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"${attrs}>${inner}</svg>`;

describe('svgProblem', () => {
  it.each([
    ['plain art', svg('<rect width="5" height="5" fill="red"/><!-- <script> in a comment is fine -->'), null],
    ['local and raster references', svg('<use href="#a"/><image xlink:href="data:image/png;base64,AAAA"/><rect fill="url(#g)"/>'), null],
    ['a DOCTYPE', `<!DOCTYPE svg [<!ENTITY x "y">]>${svg('')}`, UploadError.svgDoctype],
    ['a script', svg('<script>alert(1)</script>'), UploadError.svgScript],
    ['a prefixed script', svg('<x:script xmlns:x="http://www.w3.org/2000/svg"/>'), UploadError.svgScript],
    ['an event handler', svg('<rect onclick="x()"/>'), UploadError.svgHandler],
    ['an event handler on the root', svg('', ' onload="x()"'), UploadError.svgHandler],
    ['a javascript: link hidden by character references', svg('<a href="&#106;avascript:x()"><rect/></a>'), UploadError.svgScript],
    ['foreignObject', svg('<foreignObject><div/></foreignObject>'), UploadError.svgForeign],
    ['an external href', svg('<image href="https://evil.example/x.png"/>'), UploadError.svgExternal],
    ['animate rewriting an href', svg('<animate attributeName="xlink:href" to="x"/>'), UploadError.svgExternal],
    ['CSS url() to elsewhere', svg('<style>rect { fill: url( "https://e.example/x" ) }</style>'), UploadError.svgExternal],
    ['CSS url() in a style attribute', svg('<rect style="fill:url(http://e.example/x)"/>'), UploadError.svgExternal],
    ['@import in CDATA', svg('<style><![CDATA[@import "x.css";]]></style>'), UploadError.svgExternal],
    ['an xml-stylesheet instruction', `<?xml-stylesheet href="https://e.example/x.css"?>${svg('')}`, UploadError.svgExternal],
    ['not well-formed XML', svg('<a<a<a'), UploadError.svgNotSvg],
    ['another root element', '<html xmlns="http://www.w3.org/1999/xhtml"/>', UploadError.svgNotSvg],
  ])('%s', (_name, text, expected) => {
    expect(svgProblem(text)).toBe(expected);
  });

  // A regular expression over such input backtracks quadratically; the parser is linear,
  // so even MBs of hostile repetitions are answered at once.
  it.each([
    ['160 KB of repeated "<a", never closed', svgBomb(80_000).toString()],
    ['2 MB of repeated "<a", never closed', svgBomb(1_000_000).toString()],
    ['repeated "url("', svg(`<style>${'url('.repeat(500_000)}</style>`)],
    ['one huge tag', svg(`<rect ${'a'.repeat(2_000_000)}`)],
    ['many attributes', svg(`<g ${Array.from({ length: 20_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`)],
  ])('checks a hostile SVG (%s) in well under a second', (_name, text) => {
    const t = performance.now();
    svgProblem(text);
    expect(performance.now() - t).toBeLessThan(1000);
  });
});
