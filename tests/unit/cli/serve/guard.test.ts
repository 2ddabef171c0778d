import { bearerToken, judgeRequest, sameSecret, type RequestFacts } from '../../../../src/cli/serve/guard';

// The request guard of `serve`, rule by rule: one row per request, the verdict it must get. The token comes only in
// the Authorization header (issue 40 item 4: a cookie goes to every port of 127.0.0.1, redteam H3).
const LAUNCH = { token: 'tok-AAAA', port: 4321 };
const OWN = '127.0.0.1:4321';
const AUTH = 'Bearer tok-AAAA';

function request(overrides: Partial<RequestFacts>): RequestFacts {
  return {
    method: 'GET',
    path: '/api/state',
    host: OWN,
    authorization: AUTH,
    origin: undefined,
    contentType: undefined,
    ...overrides,
  };
}

const POST = {
  method: 'POST',
  path: '/api/approve',
  origin: `http://${OWN}`,
  contentType: 'application/json',
} satisfies Partial<RequestFacts>;

describe('judgeRequest', () => {
  it.each<[string, Partial<RequestFacts>, string]>([
    ['data with the token', {}, 'allow data'],
    ['data as localhost', { host: 'localhost:4321' }, 'allow data'],
    ['data, Host in capitals', { host: 'LOCALHOST:4321' }, 'allow data'],
    ['data by HEAD', { method: 'HEAD' }, 'allow data'],
    ["a session's detail", { path: '/api/session/agent-x' }, 'allow data'],
    [
      'the page without a token (it holds no data: a link opens it)',
      { path: '/', authorization: undefined },
      'allow page',
    ],
    ['the script without a token', { path: '/app.js', authorization: undefined }, 'allow page'],
    ['an unknown page without a token (404 later)', { path: '/nope', authorization: undefined }, 'allow page'],
    ['a POST to the page', { ...POST, path: '/' }, '405 E_METHOD'],
    ['data without a token', { authorization: undefined }, '403 E_TOKEN'],
    ['data with a wrong token', { authorization: 'Bearer tok-AAAB' }, '403 E_TOKEN'],
    ['data with a token prefix', { authorization: 'Bearer tok-AAA' }, '403 E_TOKEN'],
    ['data with an empty token', { authorization: 'Bearer ' }, '403 E_TOKEN'],
    ['data with the token but not as Bearer', { authorization: 'tok-AAAA' }, '403 E_TOKEN'],
    ['data with the token as Basic', { authorization: 'Basic tok-AAAA' }, '403 E_TOKEN'],
    [
      'data under /api without the trailing slash is the page (404)',
      { path: '/api', authorization: undefined },
      'allow page',
    ],
    ['another Host (DNS rebinding)', { host: 'evil.example:4321' }, '421 E_HOST'],
    ['our address on another port', { host: '127.0.0.1:80' }, '421 E_HOST'],
    ['no Host', { host: undefined }, '421 E_HOST'],
    ['a Host without port', { host: '127.0.0.1' }, '421 E_HOST'],
    ['another Host for the page', { host: 'evil.example', path: '/', authorization: undefined }, '421 E_HOST'],
    ['POST from its own page', POST, 'allow data'],
    [
      'POST as localhost from localhost',
      { ...POST, host: 'localhost:4321', origin: 'http://localhost:4321' },
      'allow data',
    ],
    ['POST with a charset', { ...POST, contentType: 'application/json; charset=utf-8' }, 'allow data'],
    ['POST from another origin', { ...POST, origin: 'http://evil.example' }, '403 E_ORIGIN'],
    ['POST from another port of ours', { ...POST, origin: 'http://127.0.0.1:5555' }, '403 E_ORIGIN'],
    ['POST from localhost to 127.0.0.1', { ...POST, origin: 'http://localhost:4321' }, '403 E_ORIGIN'],
    ['POST without an Origin', { ...POST, origin: undefined }, '403 E_ORIGIN'],
    ['POST with Origin null', { ...POST, origin: 'null' }, '403 E_ORIGIN'],
    ['POST over https origin', { ...POST, origin: `https://${OWN}` }, '403 E_ORIGIN'],
    ['POST as a form', { ...POST, contentType: 'application/x-www-form-urlencoded' }, '415 E_CONTENT_TYPE'],
    ['POST as text', { ...POST, contentType: 'text/plain' }, '415 E_CONTENT_TYPE'],
    ['POST without a type', { ...POST, contentType: undefined }, '415 E_CONTENT_TYPE'],
    ['POST without the token', { ...POST, authorization: undefined }, '403 E_TOKEN'],
    ['PUT', { method: 'PUT' }, '405 E_METHOD'],
    ['DELETE', { method: 'DELETE' }, '405 E_METHOD'],
    // A browser's preflight carries no Authorization header (only the names of those it would send).
    [
      'OPTIONS (a CORS preflight)',
      { method: 'OPTIONS', origin: 'http://evil.example', authorization: undefined },
      '403 E_TOKEN',
    ],
    ['OPTIONS with the token', { method: 'OPTIONS' }, '405 E_METHOD'],
  ])('%s', (_name, overrides, expected) => {
    const verdict = judgeRequest(request(overrides), LAUNCH);
    const said =
      verdict.kind === 'allow' ? `allow ${verdict.data ? 'data' : 'page'}` : `${verdict.status} ${verdict.code}`;
    expect(said).toBe(expected);
  });
});

describe('bearerToken', () => {
  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['Bearer abc-_9', 'abc-_9'],
    [' Bearer abc ', 'abc'],
    ['bearer abc', null],
    ['Bearer a b', null],
    ['Bearer a;b', null],
    ['Basic abc', null],
  ])('%j → %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});

describe('sameSecret', () => {
  it.each<[string, string, boolean]>([
    ['abc', 'abc', true],
    ['abd', 'abc', false],
    ['ab', 'abc', false],
    ['abcd', 'abc', false],
    ['', 'abc', false],
    ['', '', true],
    ['abcabc', 'abc', false],
  ])('%j vs %j', (given, expected, same) => {
    expect(sameSecret(given, expected)).toBe(same);
  });
});
