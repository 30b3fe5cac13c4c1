// Test helper (not exported from the lib): a DNS server on 127.0.0.1 over UDP that answers A and AAAA
// queries from a table, so the c-ares resolver is tested with real packets and no network. A name not in the
// table is NXDOMAIN; a name in it without records of the asked type is an empty NOERROR answer (NODATA);
// `servfail` answers SERVFAIL; `silent` (or a type set to 'silent') is read and never answered. Answers for
// the `held` names wait until `release()`, so a test can keep a lookup in flight without any timing.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

export type DnsRecords =
  | 'servfail'
  | 'silent'
  | { readonly A?: readonly string[] | 'silent'; readonly AAAA?: readonly string[] | 'silent' };

export interface UdpDnsServer {
  /** `127.0.0.1:port`, for `Resolver#setServers`. */
  readonly address: string;
  /** Every question received, as `name TYPE`. */
  readonly asked: string[];
  /** Settles once `count` questions have been received in all. */
  askedAtLeast(count: number): Promise<void>;
  /** Sends the answers held back so far (and stops holding). */
  release(): void;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

interface Question {
  readonly id: number;
  readonly name: string;
  readonly type: number;
  /** The question section as received, echoed in the answer. */
  readonly section: Buffer;
}

function parseQuestion(packet: Buffer): Question | null {
  if (packet.length < 12 || packet.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let offset = 12;
  for (;;) {
    const length = packet[offset];
    if (length === undefined) return null;
    offset += 1;
    if (length === 0) break;
    labels.push(packet.toString('ascii', offset, offset + length));
    offset += length;
  }
  if (offset + 4 > packet.length) return null;
  return {
    id: packet.readUInt16BE(0),
    name: labels.join('.').toLowerCase(),
    type: packet.readUInt16BE(offset),
    section: packet.subarray(12, offset + 4),
  };
}

function answerRecord(type: number, address: string): Buffer {
  const data = Buffer.from(ipaddr.parse(address).toByteArray());
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  record.writeUInt16BE(type, 2);
  record.writeUInt16BE(1, 4); // class IN
  record.writeUInt32BE(60, 6); // TTL
  record.writeUInt16BE(data.length, 10);
  return Buffer.concat([record, data]);
}

function response(question: Question, rcode: number, answers: readonly Buffer[]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(question.id, 0);
  header.writeUInt16BE(0x8180 | rcode, 2); // a response, recursion desired and available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, question.section, ...answers]);
}

function answerTo(question: Question, table: Readonly<Record<string, DnsRecords>>): Buffer | null {
  const records = Object.hasOwn(table, question.name) ? table[question.name] : undefined;
  if (records === undefined) return response(question, RCODE_NXDOMAIN, []);
  if (records === 'silent') return null;
  if (records === 'servfail') return response(question, RCODE_SERVFAIL, []);
  const type = question.type === TYPE_A ? 'A' : question.type === TYPE_AAAA ? 'AAAA' : null;
  const addresses = type === null ? [] : (records[type] ?? []);
  if (addresses === 'silent') return null;
  const matching = addresses.filter((address) => (type === 'A' ? isIPv4(address) : isIPv6(address)));
  return response(
    question,
    0,
    matching.map((address) => answerRecord(question.type, address)),
  );
}

export async function startUdpDnsServer(
  table: Readonly<Record<string, DnsRecords>>,
  options: { readonly held?: readonly string[] } = {},
): Promise<UdpDnsServer> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  const waiting: { readonly count: number; readonly settle: () => void }[] = [];
  let holding = new Set(options.held ?? []);
  const heldBack: (() => void)[] = [];
  socket.on('message', (packet: Buffer, peer: RemoteInfo) => {
    const question = parseQuestion(packet);
    if (question === null) return;
    const type =
      question.type === TYPE_A ? 'A' : question.type === TYPE_AAAA ? 'AAAA' : String(question.type);
    asked.push(`${question.name} ${type}`);
    const answer = answerTo(question, table);
    if (answer !== null) {
      const send = () => socket.send(answer, peer.port, peer.address);
      if (holding.has(question.name)) heldBack.push(send);
      else send();
    }
    for (const waiter of waiting.filter((w) => asked.length >= w.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.settle();
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked,
    askedAtLeast: (count) =>
      asked.length >= count
        ? Promise.resolve()
        : new Promise<void>((settle) => waiting.push({ count, settle })),
    release: () => {
      holding = new Set();
      for (const send of heldBack.splice(0)) send();
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
