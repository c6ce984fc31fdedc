/** Raw-socket requests for tests of what a server does below HTTP parsing (caps, aborted bodies, framing). */
import { connect } from 'node:net';

/** Writes raw bytes on one socket and collects everything until the server closes it or `done` says so. */
export function raw(port: number, data: string, done: (received: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const finish = (): void => {
      socket.destroy();
      resolve(received);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (done(received)) finish();
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.write(data);
  });
}
