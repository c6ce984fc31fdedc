import type { HttpRequest, HttpResponse } from '../http/client.js';

/** What a request sent to obtain credentials (a token, an approval) sent and got, for the transcript of the step that needed it. */
export interface TokenExchange {
  purpose: 'credentials';
  request: HttpRequest;
  response?: HttpResponse;
  error?: { code: string; message: string };
}
