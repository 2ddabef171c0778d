import { SessionError } from './errors';

// libpq's connection URIs (PostgreSQL's "Connection URIs"), taken apart here rather than by `new URL` (which refuses
// several hosts with ports and `postgres:///db?host=/socket/folder`) or by the driver (which sends `?host=` to the
// server as a setting and stops at a bare `%` with "URI malformed"). What libpq accepts is accepted, unless the driver
// cannot honour it: that is refused naming the part, never sent on to fail at the server.

/** Where a database URL points: a TCP host and port, or a unix socket (`<folder>/.s.PGSQL.<port>`). */
export type DatabaseTarget =
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number }
  | { readonly kind: 'socket'; readonly path: string; readonly port: number };

/** A database URL taken apart, every part percent-decoded. */
export interface DatabaseAddress {
  /** Tried in this order; the first that accepts the connection is used (libpq's `target_session_attrs=any`). */
  readonly targets: readonly DatabaseTarget[];
  readonly user?: string;
  readonly password?: string;
  readonly database?: string;
  /** `connect_timeout` (seconds, above 0), when the URL names one. */
  readonly connectTimeoutSeconds?: number;
  /** The other parameters, in their order, for the driver (sslmode, application_name, server settings…). */
  readonly params: readonly (readonly [string, string])[];
}

const DEFAULT_PORT = 5432;
const SCHEME = /^postgres(?:ql)?:\/\//i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * libpq settings the driver (postgres.js) does not implement: it would pass them to the server as settings, and the
 * server would refuse the connection ("unrecognized configuration parameter").
 */
const NOT_HONOURED = new Set([
  'hostaddr',
  'passfile',
  'require_auth',
  'channel_binding',
  'fallback_application_name',
  'keepalives',
  'keepalives_idle',
  'keepalives_interval',
  'keepalives_count',
  'tcp_user_timeout',
  'replication',
  'gssencmode',
  'requiressl',
  'sslcompression',
  'sslcert',
  'sslkey',
  'sslkeylogfile',
  'sslpassword',
  'sslcertmode',
  'sslcrl',
  'sslcrldir',
  'sslsni',
  'requirepeer',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'min_protocol_version',
  'max_protocol_version',
  'krbsrvname',
  'gsslib',
  'gssdelegation',
  'service',
  'load_balance_hosts',
]);
const SSL_MODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);
const SESSION_ATTRS = new Set(['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby']);

/** True when `text` starts like a PostgreSQL URL (`postgres://` or `postgresql://`, any case). */
export function isPostgresUrl(text: string): boolean {
  return SCHEME.test(text.trim());
}

/**
 * Takes a `postgres://` / `postgresql://` URL apart as libpq does: `[user[:password]@][host][:port][,…][/database]
 * [?name=value&…]`, IPv6 hosts in brackets, a host or `?host=` starting with `/` as a unix-socket folder, several
 * hosts tried in order, `?host=`, `?port=`, `?user=`, `?password=`, `?dbname=` overriding the parts.
 * @param where what named it, for messages (`AGENT_SESSION_DATABASE_URL`, …)
 * @throws SessionError E_USAGE naming the part that is wrong (the URL shown with its password masked)
 */
export function parseDatabaseUrl(text: string, where: string): DatabaseAddress {
  const fail = (problem: string): never => {
    throw new SessionError(
      'E_USAGE',
      `Expected ${where} to be a postgres://user@host/database URL, got ${maskDatabaseUrl(text)}: ${problem}`,
    );
  };
  const scheme = SCHEME.exec(text);
  if (scheme === null) return fail('it does not start with postgres:// or postgresql://');
  if (/\s/.test(text) || new RegExp(CONTROL.source).test(text))
    fail('it holds a space or a control character (percent-encode it, e.g. %20)');
  const raw = split(text.slice(scheme[0].length), fail);
  const decode = (value: string, part: string): string => percentDecode(value, part, fail);

  let user = raw.user === undefined || raw.user === '' ? undefined : decode(raw.user, 'user');
  let password = raw.password === undefined ? undefined : decode(raw.password, 'password');
  let database = raw.database === undefined || raw.database === '' ? undefined : decode(raw.database, 'database');
  let hosts = raw.hosts.map((host) => (host.bracketed ? host.text : decode(host.text, 'host')));
  let ports = raw.ports.map((port) => decode(port, 'port'));
  let connectTimeoutSeconds: number | undefined;
  let sessionAttrs: string | undefined;
  const params: [string, string][] = [];
  for (const segment of raw.query) {
    const [key = '', value, extra] = segment.split('=');
    const name = decode(key, 'parameter name');
    if (value === undefined) fail(`its parameter \`${name}\` has no \`=value\``);
    if (extra !== undefined) fail(`its parameter \`${name}\` has a second \`=\` (percent-encode it: %3D)`);
    const decoded = decode(value!, `parameter \`${name}\``);
    if (name === 'host') hosts = decoded.split(',');
    else if (name === 'port') ports = decoded.split(',');
    else if (name === 'user') user = decoded === '' ? undefined : decoded;
    else if (name === 'password') password = decoded;
    else if (name === 'dbname') database = decoded === '' ? undefined : decoded;
    else if (name === 'connect_timeout') {
      if (!/^\d+$/.test(decoded)) fail(`its parameter \`connect_timeout\` is not whole seconds`);
      connectTimeoutSeconds = Number(decoded) > 0 ? Number(decoded) : undefined;
    } else if (name === 'sslmode') {
      if (!SSL_MODES.has(decoded)) fail(`its parameter \`sslmode\` is not one of ${[...SSL_MODES].join(', ')}`);
      params.push([name, decoded]);
    } else if (name === 'ssl' && decoded === 'true') params.push(['sslmode', 'require']);
    else if (name === 'sslrootcert') {
      if (decoded !== 'system')
        fail(
          'its parameter `sslrootcert` names a CA file, which the driver does not read: use sslmode=verify-full ' +
            'with that CA in NODE_EXTRA_CA_CERTS',
        );
      params.push(['sslmode', 'verify-full']);
    } else if (name === 'target_session_attrs') {
      if (!SESSION_ATTRS.has(decoded))
        fail(`its parameter \`target_session_attrs\` is not one of ${[...SESSION_ATTRS].join(', ')}`);
      sessionAttrs = decoded;
    } else if (NOT_HONOURED.has(name)) fail(`its parameter \`${name}\` is a libpq setting the driver does not honour`);
    else params.push([name, decoded]);
  }

  if (hosts.length === 1 && hosts[0] === '')
    fail('it names no host (postgres://HOST/database, or ?host=/folder/of/the/socket for a unix socket)');
  if (hosts.some((host) => host === '')) fail('its host list has an empty entry');
  if (ports.length !== 1 && ports.length !== hosts.length)
    fail(`its port list has ${ports.length} entries for ${hosts.length} hosts`);
  const targets = hosts.map((host, index): DatabaseTarget => {
    const given = ports.length === 1 ? ports[0]! : ports[index]!;
    const port = given === '' ? DEFAULT_PORT : Number(given);
    if (!/^\d*$/.test(given) || !(port >= 1 && port <= 65535))
      fail(`its port \`${given}\` is not a number from 1 to 65535`);
    if (!host.startsWith('/')) return { kind: 'tcp', host, port };
    return { kind: 'socket', path: `${host.replace(/(.)\/+$/, '$1')}/.s.PGSQL.${port}`, port };
  });
  // The driver picks no host by its state: with several, only libpq's default (the first that answers) is honest.
  if (sessionAttrs !== undefined && sessionAttrs !== 'any') {
    if (targets.length > 1)
      fail(
        `its parameter \`target_session_attrs\` is ${sessionAttrs}, which the driver cannot apply across several ` +
          'hosts (only `any`: the first that answers): name the one host, or a proxy in front of them',
      );
    params.push(['target_session_attrs', sessionAttrs]);
  }
  return {
    targets,
    ...(user === undefined ? {} : { user }),
    ...(password === undefined ? {} : { password }),
    ...(database === undefined ? {} : { database }),
    ...(connectTimeoutSeconds === undefined ? {} : { connectTimeoutSeconds }),
    params,
  };
}

/**
 * The URL as it may be printed or logged: the password (in the user-info part or a `password=` / `sslpassword=`
 * parameter) replaced by `****`, control characters written as `\uXXXX`. A text that is not a URL is never echoed
 * (it may be a password pasted in the wrong place).
 */
export function maskDatabaseUrl(url: string): string {
  const scheme = SCHEME.exec(url);
  const masked = scheme === null ? maskOtherUrl(url) : scheme[0] + maskRest(url.slice(scheme[0].length));
  return masked.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// --- internal ---

interface RawParts {
  readonly user?: string;
  readonly password?: string;
  readonly hosts: readonly { readonly text: string; readonly bracketed: boolean }[];
  readonly ports: readonly string[];
  readonly database?: string;
  readonly query: readonly string[];
}

/** The parts of what follows `postgres://`, still percent-encoded, split where libpq splits them. */
function split(rest: string, fail: (problem: string) => never): RawParts {
  let p = 0;
  let user: string | undefined;
  let password: string | undefined;
  // libpq looks for the user-info's `@` up to the first `/`: a `?` or `:` before it is part of the password.
  const at = indexOfAny(rest, '@/', 0);
  if (rest[at] === '@') {
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    user = colon === -1 ? userinfo : userinfo.slice(0, colon);
    if (colon !== -1) password = userinfo.slice(colon + 1);
    p = at + 1;
  }
  const hosts: { text: string; bracketed: boolean }[] = [];
  const ports: string[] = [];
  for (;;) {
    let host: { text: string; bracketed: boolean };
    if (rest[p] === '[') {
      const close = rest.indexOf(']', p);
      if (close === -1) fail('its IPv6 host has a `[` without its `]`');
      host = { text: rest.slice(p + 1, close), bracketed: true };
      if (host.text === '') fail('its IPv6 host is empty');
      p = close + 1;
      if (p < rest.length && !':/?,'.includes(rest[p]!))
        fail(`its IPv6 host is followed by \`${rest[p]!}\` (expected :, /, ? or ,)`);
    } else {
      const end = indexOfAny(rest, ':/?,', p);
      host = { text: rest.slice(p, end), bracketed: false };
      p = end;
    }
    let port = '';
    if (rest[p] === ':') {
      const end = indexOfAny(rest, '/?,', p + 1);
      port = rest.slice(p + 1, end);
      p = end;
    }
    hosts.push(host);
    ports.push(port);
    if (rest[p] !== ',') break;
    p++;
  }
  let database: string | undefined;
  if (rest[p] === '/') {
    const end = indexOfAny(rest, '?', p + 1);
    database = rest.slice(p + 1, end);
    p = end;
  }
  const query = p < rest.length ? rest.slice(p + 1).split('&') : [];
  // A trailing `&` ends the list (libpq); any other empty segment is a parameter without `=`.
  if (query.length > 0 && query[query.length - 1] === '') query.pop();
  return {
    ...(user === undefined ? {} : { user }),
    ...(password === undefined ? {} : { password }),
    hosts,
    ports,
    ...(database === undefined ? {} : { database }),
    query,
  };
}

/** The first index of any of `chars` in `text` from `from`, else the text's length. */
function indexOfAny(text: string, chars: string, from: number): number {
  for (let i = from; i < text.length; i++) if (chars.includes(text[i]!)) return i;
  return text.length;
}

/** libpq's percent-decoding: `%` must be followed by two hex digits, `%00` is refused, the result must be UTF-8. */
function percentDecode(value: string, part: string, fail: (problem: string) => never): string {
  if (/%(?![0-9a-fA-F]{2})/.test(value))
    fail(`its ${part} has a \`%\` not followed by two hex digits (write %25 for a %)`);
  if (/%00/.test(value)) fail(`its ${part} holds %00`);
  try {
    return decodeURIComponent(value);
  } catch {
    return fail(`its ${part} is not UTF-8 once percent-decoded`);
  }
}

/** The part after the scheme with the password of the user-info and of `password=` parameters masked. */
function maskRest(rest: string): string {
  const at = indexOfAny(rest, '@/', 0);
  let masked = rest;
  let after = 0;
  if (rest[at] === '@') {
    const colon = rest.indexOf(':');
    masked = colon !== -1 && colon < at ? `${rest.slice(0, colon)}:****${rest.slice(at)}` : rest;
    after = masked.indexOf('@') + 1;
  }
  const question = masked.indexOf('?', after);
  if (question === -1) return masked;
  const params = masked
    .slice(question + 1)
    .split('&')
    .map((segment) => {
      const equals = segment.indexOf('=');
      const key = equals === -1 ? segment : segment.slice(0, equals);
      return equals !== -1 && /^(ssl)?password$/i.test(lenientDecode(key)) ? `${key}=****` : segment;
    });
  return `${masked.slice(0, question + 1)}${params.join('&')}`;
}

function lenientDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Another scheme's URL (`mysql://…`), masked by the WHATWG parser; `(not a URL)` when it is none. */
function maskOtherUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  if (parsed.password !== '') parsed.password = '****';
  for (const key of [...parsed.searchParams.keys()])
    if (/^(ssl)?password$/i.test(key)) parsed.searchParams.set(key, '****');
  return parsed.toString();
}
