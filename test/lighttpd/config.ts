/**
 * The lighttpd configuration of the third-party test target: a common WebDAV setup. Articles are files under
 * `/articles/` (mod_webdav, writable); GET / and each user's `/users/<name>/financialrecords` need that user's Basic
 * credentials (mod_auth, htpasswd); writes need any valid user. The TLS listener (mod_openssl) is where credentials
 * go; the plain listener stays open for public reads only: it refuses protected paths and writes with 403 whatever
 * credentials come with them, so Basic over plain HTTP opens nothing (§5, §5.1 "must not be used over plain HTTP")
 * and no 401 invites a client to send a password in clear.
 */
import { createHash } from 'node:crypto';

export interface LighttpdConfigOptions {
  /** Where documents live (articles/, users/<name>/financialrecords, index.html). */
  documentRoot: string;
  /** htpasswd file (see `htpasswd`). */
  userFile: string;
  certFile: string;
  keyFile: string;
  errorLog: string;
  httpPort: number;
  httpsPort: number;
  /** User names; each gets a records path only they may read. */
  users: string[];
}

const READS = 'GET|HEAD|OPTIONS|PROPFIND';

/** A lighttpd string literal (its escapes are `\\` and `\"`). */
function str(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function basic(require: string): string {
  return `auth.require = ( "" => ( "method" => "basic", "realm" => "conform lighttpd", "require" => ${str(require)} ) )`;
}

/** One htpasswd line per user, `{SHA}` form (base64 of SHA-1 over the password's UTF-8 bytes), which lighttpd reads. */
export function htpasswd(users: Array<{ name: string; password: string }>): string {
  return users
    .map((u) => `${u.name}:{SHA}${createHash('sha1').update(u.password, 'utf8').digest('base64')}\n`)
    .join('');
}

export function lighttpdConfig(o: LighttpdConfigOptions): string {
  const userRules = o.users.map((u) => `$HTTP["url"] =~ ${str(`^/users/${u}/`)} { ${basic(`user=${u}`)} }`);
  return [
    // mod_access first: its refusal on the plain listener comes before mod_auth looks at credentials.
    'server.modules = ( "mod_access", "mod_auth", "mod_authn_file", "mod_webdav", "mod_openssl", "mod_staticfile" )',
    `server.document-root = ${str(o.documentRoot)}`,
    'server.bind = "127.0.0.1"',
    `server.port = ${o.httpPort}`,
    `server.errorlog = ${str(o.errorLog)}`,
    'index-file.names = ( "index.html" )',
    'mimetype.assign = ( "" => "application/xml" )',
    `$SERVER["socket"] == "127.0.0.1:${o.httpsPort}" {`,
    '  ssl.engine = "enable"',
    `  ssl.pemfile = ${str(o.certFile)}`,
    `  ssl.privkey = ${str(o.keyFile)}`,
    '}',
    'auth.backend = "htpasswd"',
    `auth.backend.htpasswd.userfile = ${str(o.userFile)}`,
    '$HTTP["url"] =~ "^/articles(/|$)" {',
    '  webdav.activate = "enable"',
    '  webdav.is-readonly = "disable"',
    `  $HTTP["request-method"] !~ "^(${READS})$" { ${basic('valid-user')} }`,
    '}',
    `$HTTP["url"] == "/" { ${basic('valid-user')} }`,
    ...userRules,
    '$HTTP["scheme"] == "http" {',
    '  $HTTP["url"] =~ "^/(users/|$)" { url.access-deny = ( "" ) }',
    `  $HTTP["request-method"] !~ "^(${READS})$" { url.access-deny = ( "" ) }`,
    '}',
    '',
  ].join('\n');
}
