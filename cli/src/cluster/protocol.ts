/**
 * The messages between `conform serve --instances N` and its instances (child processes, over the IPC channel of
 * `child_process.fork`). The child validates what it receives with these schemas: the boundary is IPC, not argv,
 * so the TLS key never shows in a process list.
 */
import { z } from 'zod';

const Port = z.number().int().min(0).max(65535);
const Positive = z.number().int().min(1);

/** Parent → instance: start with these settings. */
export const StartMessageSchema = z.strictObject({
  type: z.literal('start'),
  /** 1-based number of this instance. */
  instance: Positive,
  quiet: z.boolean(),
  port: Port,
  /** Absent: no TLS listener (`--https-port off`). */
  httpsPort: Port.optional(),
  settings: z.strictObject({
    host: z.string().min(1),
    faults: z.array(z.string()),
    variants: z.array(z.string()),
    tls: z.strictObject({ cert: z.string(), key: z.string() }).optional(),
    maxBodyBytes: Positive.optional(),
    maxArticles: Positive.optional(),
    maxHeaderBytes: Positive.optional(),
    nonceCapacity: Positive.optional(),
    nonceShare: Positive.optional(),
    tokenCapacity: Positive.optional(),
    requestTimeoutMs: Positive.optional(),
    keepAliveTimeoutMs: Positive.optional(),
    handshakeTimeoutMs: Positive.optional(),
    maxConnections: Positive.optional(),
    maxConnectionsPerClient: Positive.optional(),
    window: Positive.optional(),
    tokenTtl: Positive.optional(),
    bodyHash: z.boolean().optional(),
    diagnose: z.boolean().optional(),
  }),
  redis: z.strictObject({ url: z.string().min(1), prefix: z.string().optional() }).optional(),
});
export type StartMessage = z.infer<typeof StartMessageSchema>;

/** Parent → instance: close and exit. */
export const StopMessageSchema = z.strictObject({ type: z.literal('stop') });

/** Instance → parent: listening on these URLs, or could not start. */
export const InstanceReportSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('listening'),
    instance: Positive,
    url: z.string(),
    httpsUrl: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('failed'), instance: Positive, message: z.string(), usage: z.boolean() }),
]);
export type InstanceReport = z.infer<typeof InstanceReportSchema>;
