import { cookieValue, judgeRequest, sameSecret, type RequestFacts } from '../../../../src/cli/serve/guard';

// The request guard of `serve`, rule by rule: one row per request, the verdict it must get.
const LAUNCH = { token: 'tok-AAAA', csrf: 'csrf-BBBB', port: 4321 };
const OWN = '127.0.0.1:4321';
const COOKIE = 'agent_session_token_4321';

function request(overrides: Partial<RequestFacts>): RequestFacts {
  return {
    method: 'GET',
    queryToken: null,
    host: OWN,
    cookie: `${COOKIE}=tok-AAAA`,
    cookieName: COOKIE,
    origin: undefined,
    csrf: undefined,
    contentType: undefined,
    ...overrides,
  };
}

const POST = {
  method: 'POST',
  origin: `http://${OWN}`,
  csrf: 'csrf-BBBB',
  contentType: 'application/json',
} satisfies Partial<RequestFacts>;

describe('judgeRequest', () => {
  it.each<[string, Partial<RequestFacts>, string]>([
    ['GET with the cookie', {}, 'allow'],
    ['GET with the token in the query, no cookie', { cookie: undefined, queryToken: 'tok-AAAA' }, 'allow+cookie'],
    ['GET as localhost', { host: 'localhost:4321' }, 'allow'],
    ['GET, Host in capitals', { host: 'LOCALHOST:4321' }, 'allow'],
    ['HEAD with the cookie', { method: 'HEAD' }, 'allow'],
    ['no token at all', { cookie: undefined }, '403 E_TOKEN'],
    ['a wrong token in the query', { cookie: undefined, queryToken: 'tok-AAAB' }, '403 E_TOKEN'],
    ['a wrong cookie', { cookie: `${COOKIE}=nope` }, '403 E_TOKEN'],
    ['a token prefix', { cookie: `${COOKIE}=tok-AAA` }, '403 E_TOKEN'],
    ['the token in the cookie of another port', { cookie: 'agent_session_token_9999=tok-AAAA' }, '403 E_TOKEN'],
    ['an empty token', { cookie: undefined, queryToken: '' }, '403 E_TOKEN'],
    ['another Host (DNS rebinding)', { host: 'evil.example:4321' }, '421 E_HOST'],
    ['our address on another port', { host: '127.0.0.1:80' }, '421 E_HOST'],
    ['no Host', { host: undefined }, '421 E_HOST'],
    ['a Host without port', { host: '127.0.0.1' }, '421 E_HOST'],
    ['another Host, even with the token', { host: 'evil.example', queryToken: 'tok-AAAA' }, '421 E_HOST'],
    ['POST from its own page', POST, 'allow'],
    ['POST as localhost from localhost', { ...POST, host: 'localhost:4321', origin: 'http://localhost:4321' }, 'allow'],
    ['POST with a charset', { ...POST, contentType: 'application/json; charset=utf-8' }, 'allow'],
    ['POST from another origin', { ...POST, origin: 'http://evil.example' }, '403 E_ORIGIN'],
    ['POST from localhost to 127.0.0.1', { ...POST, origin: 'http://localhost:4321' }, '403 E_ORIGIN'],
    ['POST without an Origin', { ...POST, origin: undefined }, '403 E_ORIGIN'],
    ['POST with Origin null', { ...POST, origin: 'null' }, '403 E_ORIGIN'],
    ['POST over https origin', { ...POST, origin: `https://${OWN}` }, '403 E_ORIGIN'],
    ['POST without the anti-forgery token', { ...POST, csrf: undefined }, '403 E_CSRF'],
    ['POST with a wrong anti-forgery token', { ...POST, csrf: 'csrf-BBBC' }, '403 E_CSRF'],
    ['POST with the access token as anti-forgery token', { ...POST, csrf: 'tok-AAAA' }, '403 E_CSRF'],
    ['POST as a form', { ...POST, contentType: 'application/x-www-form-urlencoded' }, '415 E_CONTENT_TYPE'],
    ['POST as text', { ...POST, contentType: 'text/plain' }, '415 E_CONTENT_TYPE'],
    ['POST without a type', { ...POST, contentType: undefined }, '415 E_CONTENT_TYPE'],
    ['POST without the token', { ...POST, cookie: undefined }, '403 E_TOKEN'],
    ['PUT', { method: 'PUT' }, '405 E_METHOD'],
    ['DELETE', { method: 'DELETE' }, '405 E_METHOD'],
    ['OPTIONS (a CORS preflight)', { method: 'OPTIONS', origin: 'http://evil.example' }, '405 E_METHOD'],
  ])('%s', (_name, overrides, expected) => {
    const verdict = judgeRequest(request(overrides), LAUNCH);
    const said =
      verdict.kind === 'allow' ? (verdict.setCookie ? 'allow+cookie' : 'allow') : `${verdict.status} ${verdict.code}`;
    expect(said).toBe(expected);
  });
});

describe('cookieValue', () => {
  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['a=1', null],
    ['x=1', '1'],
    ['a=1; x=2', '2'],
    ['a=1;x=2 ', '2'],
    ['xx=3; x=4', '4'],
    ['x=5; x=6', '5'],
    ['x', null],
  ])('%j → %j', (header, expected) => {
    expect(cookieValue(header, 'x')).toBe(expected);
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
