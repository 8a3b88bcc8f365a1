import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { Database } from '#app/db/database.server'
import { forwardedClientIp, normaliseIp } from '#app/modules/account/client-ip.server'
import { decodeFrame, encodeFrame, MAX_FRAME_BYTES, parseVsn, reply, type Frame, type Vsn } from './protocol.server'
import type { RealtimeClaims } from './tokens.server'

/**
 * The local platform's realtime relay: the Phoenix channel protocol that
 * realtime-js speaks (Supabase Realtime's broadcast part), on the app's own
 * port at /realtime/v1/websocket. Private channels only; who may join a topic
 * is decided in SQL by the SELECT policies on realtime.messages, as Supabase
 * Realtime decides it (authoriseTopic). Server-sent broadcasts only: what a
 * client pushes besides join, leave, heartbeat and token updates is dropped.
 */
export const RELAY_PATH = '/realtime/v1/websocket'

export const RELAY_LIMITS = {
	/** Largest frame a client may send (ws closes the socket with 1009 beyond it). */
	maxFrameBytes: MAX_FRAME_BYTES,
	/** Channels joined or being joined on one socket. */
	channelsPerSocket: 100,
	/** Sockets from one client address (X-Forwarded-For's, behind TRUST_PROXY proxies; IPv6 by its /64). */
	socketsPerClient: 20,
	/** Bytes queued for a socket that does not read; past them it is cut off (it would not read a close frame either), and realtime-js reconnects and catches up. */
	maxBufferedBytes: 4 * 1024 * 1024,
	/** How often expired tokens are looked for (their channels are closed). */
	expiryCheckMs: 1000,
	/**
	 * Joins (and token refreshes, which authorise again) a socket may send: a
	 * burst, then so many a second. A page joins two or three topics; a
	 * client that joins and leaves in a loop is answered "Too many joins"
	 * without a database query (realtime-js retries after 1, 2, 5, 10 s).
	 */
	joinsPerSocket: { burst: 20, perSecond: 2 },
	/** The same for all of one client address's sockets together. */
	joinsPerClient: { burst: 60, perSecond: 10 },
	/** Authorisations (a transaction each) running at once in this process; the pool keeps the rest for requests. */
	concurrentAuthorisations: 4,
	/** Authorisations waiting for one of those; past them a join is answered "Busy" at once. */
	queuedAuthorisations: 200,
}

/** A token bucket: `burst` tokens, refilled at `perSecond`. */
class Bucket {
	private tokens: number
	private at = performance.now()
	constructor(private readonly rate: { burst: number; perSecond: number }) {
		this.tokens = rate.burst
	}
	take(): boolean {
		const now = performance.now()
		this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.at) / 1000) * this.rate.perSecond)
		this.at = now
		if (this.tokens < 1) return false
		this.tokens -= 1
		return true
	}
	/** Full again: nothing to remember. */
	full(): boolean {
		return this.tokens + ((performance.now() - this.at) / 1000) * this.rate.perSecond >= this.rate.burst
	}
}

/** Refused by `concurrency`: its queue is full. */
export class Busy extends Error {}

/** Runs at most `limit` tasks at once; `queue` more wait; past them a task is refused with Busy. */
export function concurrency(limit: number, queue: number) {
	let running = 0
	const waiting: Array<() => void> = []
	return async <T>(task: () => Promise<T>): Promise<T> => {
		if (running >= limit) {
			if (waiting.length >= queue) throw new Busy()
			await new Promise<void>((resolve) => waiting.push(resolve))
		}
		running++
		try {
			return await task()
		} finally {
			running--
			waiting.shift()?.()
		}
	}
}

export interface RelayOptions {
	db: Database
	/** The app's origin (APP_URL): a browser's Origin header must be this one. */
	origin: string
	verify(token: unknown): Promise<{ claims: RealtimeClaims; exp: number } | null>
	/** TRUST_PROXY: proxies that append to X-Forwarded-For (0: the peer's address is the client's). */
	trustProxy?: number
	limits?: Partial<typeof RELAY_LIMITS>
}

interface Channel {
	topic: string
	claims: RealtimeClaims
	exp: number
}

interface Connection {
	ws: WebSocket
	vsn: Vsn
	client: string
	apikey: string | null
	channels: Map<string, Channel>
	/** Joins being authorised, by topic: each counts toward the channel limit; a leave meanwhile cancels it. */
	joining: Map<string, { cancelled: boolean }>
	joins: Bucket
}

class Verdict {
	constructor(readonly allowed: boolean) {}
}

/**
 * May these claims receive broadcasts on `topic`? Supabase Realtime's check
 * (Realtime.Tenants.Authorization): in one transaction, a probe message for
 * the topic is written, then, as the joining role with its claims and
 * realtime.topic set, the probe is read back; the policies decide whether
 * it is visible. The transaction is always rolled back.
 */
export async function authoriseTopic(db: Database, topic: string, claims: RealtimeClaims): Promise<boolean> {
	try {
		await db.transaction(async (tx) => {
			const { rows } = await tx.query<{ id: string }>(
				"insert into realtime.messages (topic, extension, private, event, payload) values ($1, 'broadcast', true, 'probe', '{}') returning id",
				[topic],
			)
			await tx.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('realtime.topic', $3, true)", [
				claims.role,
				JSON.stringify(claims),
				topic,
			])
			const seen = await tx.query('select 1 from realtime.messages where id = $1', [rows[0]!.id])
			throw new Verdict(seen.rows.length > 0)
		})
	} catch (error) {
		if (error instanceof Verdict) return error.allowed
		throw error
	}
	return false
}

export function createRelay(options: RelayOptions) {
	const limits = { ...RELAY_LIMITS, ...options.limits }
	const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes })
	const connections = new Set<Connection>()
	const subscribers = new Map<string, Set<Connection>>()
	const perClient = new Map<string, number>()
	const clientJoins = new Map<string, Bucket>()
	const authorising = concurrency(limits.concurrentAuthorisations, limits.queuedAuthorisations)
	/** A join or a token refresh: within the socket's and the client's rates? */
	const mayAuthorise = (conn: Connection): boolean => {
		let bucket = clientJoins.get(conn.client)
		if (!bucket) clientJoins.set(conn.client, (bucket = new Bucket(limits.joinsPerClient)))
		return conn.joins.take() && bucket.take()
	}
	const authorise = (topic: string, claims: RealtimeClaims) => authorising(() => authoriseTopic(options.db, topic, claims))

	/** Sends unless the socket is closed; a socket that lets too much pile up unread is closed instead. */
	const sendText = (conn: Connection, text: string | Buffer): boolean => {
		if (conn.ws.readyState !== conn.ws.OPEN) return false
		if (conn.ws.bufferedAmount > limits.maxBufferedBytes) {
			conn.ws.terminate()
			return false
		}
		conn.ws.send(text, { binary: false })
		return true
	}

	const send = (conn: Connection, frame: Frame) => void sendText(conn, encodeFrame(conn.vsn, frame))

	const leave = (conn: Connection, topic: string) => {
		conn.channels.delete(topic)
		const set = subscribers.get(topic)
		set?.delete(conn)
		if (set?.size === 0) subscribers.delete(topic)
	}

	/** Ends a channel from the server's side, as Supabase Realtime does: a system error, then phx_close. */
	const closeChannel = (conn: Connection, topic: string, message: string) => {
		send(conn, { joinRef: null, ref: null, topic, event: 'system', payload: { status: 'error', extension: 'system', message, channel: topic.replace(/^realtime:/, '') } })
		send(conn, { joinRef: null, ref: null, topic, event: 'phx_close', payload: {} })
		leave(conn, topic)
	}

	const join = async (conn: Connection, frame: Frame) => {
		const config = (frame.payload.config ?? {}) as { private?: unknown }
		if (!frame.topic.startsWith('realtime:') || frame.topic.length === 'realtime:'.length) {
			return send(conn, reply(frame, 'error', { reason: 'Topic must start with realtime:' }))
		}
		if (config.private !== true) return send(conn, reply(frame, 'error', { reason: 'Only private channels are supported' }))
		// One join of a topic at a time, and joins under way count: a burst of joins cannot pass the limit, nor hold more transactions open.
		if (conn.joining.has(frame.topic)) return send(conn, reply(frame, 'error', { reason: 'Already joining' }))
		if (!conn.channels.has(frame.topic) && conn.channels.size + conn.joining.size >= limits.channelsPerSocket) {
			return send(conn, reply(frame, 'error', { reason: 'Too many channels' }))
		}
		if (!mayAuthorise(conn)) return send(conn, reply(frame, 'error', { reason: 'Too many joins: wait a moment' }))
		const pending = { cancelled: false }
		conn.joining.set(frame.topic, pending)
		let verified: Awaited<ReturnType<RelayOptions['verify']>>
		let allowed: boolean
		const name = frame.topic.slice('realtime:'.length)
		try {
			verified = await options.verify(frame.payload.access_token ?? conn.apikey)
			allowed = verified !== null && (await authorise(name, verified.claims))
		} catch (error) {
			if (error instanceof Busy) return send(conn, reply(frame, 'error', { reason: 'Busy: try again' }))
			throw error
		} finally {
			conn.joining.delete(frame.topic)
		}
		if (!verified) return send(conn, reply(frame, 'error', { reason: 'Invalid token' }))
		if (!allowed) return send(conn, reply(frame, 'error', { reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${name}` }))
		// Left while it was being authorised: joined and left, as Phoenix would answer them in turn, with nothing subscribed.
		if (pending.cancelled) return send(conn, reply(frame, 'ok', { postgres_changes: [] }))
		if (conn.ws.readyState !== conn.ws.OPEN) return
		conn.channels.set(frame.topic, { topic: name, claims: verified.claims, exp: verified.exp })
		let set = subscribers.get(frame.topic)
		if (!set) subscribers.set(frame.topic, (set = new Set()))
		set.add(conn)
		send(conn, reply(frame, 'ok', { postgres_changes: [] }))
	}

	/** A new token for a joined channel: checked and the topic authorised again, else the channel is closed. */
	const refresh = async (conn: Connection, frame: Frame) => {
		const channel = conn.channels.get(frame.topic)
		if (!channel) return
		// A refresh in a loop is a join flood too: past the rate the channel is closed (realtime-js joins again, with the new token).
		if (!mayAuthorise(conn)) return closeChannel(conn, frame.topic, 'Too many joins: wait a moment')
		const verified = await options.verify(frame.payload.access_token)
		if (!verified) return closeChannel(conn, frame.topic, 'Invalid token')
		const allowed = await authorise(channel.topic, verified.claims).catch((error: unknown) => {
			if (error instanceof Busy) return false
			throw error
		})
		if (!allowed) return closeChannel(conn, frame.topic, 'Unauthorized')
		channel.claims = verified.claims
		channel.exp = verified.exp
	}

	const onMessage = (conn: Connection, data: RawData, isBinary: boolean) => {
		// Binary frames are client broadcasts (realtime-js's binary serializer): not accepted here.
		if (isBinary) return
		const frame = decodeFrame(conn.vsn, data.toString())
		if (!frame) return conn.ws.close(1007, 'Malformed frame')
		if (frame.topic === 'phoenix' && frame.event === 'heartbeat') return send(conn, reply(frame, 'ok', {}))
		const fail = (error: unknown) => {
			console.error(`realtime: ${frame.event} failed: ${error instanceof Error ? error.message : String(error)}`)
			send(conn, reply(frame, 'error', { reason: 'Internal error' }))
		}
		switch (frame.event) {
			case 'phx_join':
				return void join(conn, frame).catch(fail)
			case 'access_token':
				return void refresh(conn, frame).catch(fail)
			case 'phx_leave': {
				const pending = conn.joining.get(frame.topic)
				if (pending) pending.cancelled = true
				leave(conn, frame.topic)
				return send(conn, reply(frame, 'ok', {}))
			}
			default:
				return
		}
	}

	const expiry = setInterval(() => {
		const now = Date.now() / 1000
		for (const conn of connections) for (const [topic, channel] of conn.channels) if (channel.exp <= now) closeChannel(conn, topic, 'Token has expired')
		for (const [client, bucket] of clientJoins) if (bucket.full() && !perClient.has(client)) clientJoins.delete(client)
	}, limits.expiryCheckMs)
	expiry.unref()

	const refuse = (socket: Duplex, status: string) => {
		socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
	}

	return {
		/** The HTTP server's 'upgrade' event; true when the request was the relay's (handled or refused). */
		handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
			const url = new URL(req.url ?? '/', 'http://relay')
			if (url.pathname !== RELAY_PATH) return false
			// Browsers always send Origin on a WebSocket: another site's page is refused.
			if (req.headers.origin !== undefined && req.headers.origin !== options.origin) {
				refuse(socket, '403 Forbidden')
				return true
			}
			const vsn = parseVsn(url.searchParams.get('vsn'))
			if (!vsn) {
				refuse(socket, '400 Bad Request')
				return true
			}
			const peer = req.socket.remoteAddress ?? ''
			const client = forwardedClientIp(req.headers['x-forwarded-for'], options.trustProxy ?? 0) ?? normaliseIp(peer) ?? peer
			if ((perClient.get(client) ?? 0) >= limits.socketsPerClient) {
				refuse(socket, '429 Too Many Requests')
				return true
			}
			wss.handleUpgrade(req, socket, head, (ws) => {
				const conn: Connection = { ws, vsn, client, apikey: url.searchParams.get('apikey'), channels: new Map(), joining: new Map(), joins: new Bucket(limits.joinsPerSocket) }
				connections.add(conn)
				perClient.set(client, (perClient.get(client) ?? 0) + 1)
				ws.on('message', (data, isBinary) => onMessage(conn, data, isBinary))
				ws.on('error', () => ws.terminate())
				ws.on('close', () => {
					for (const pending of conn.joining.values()) pending.cancelled = true
					for (const topic of [...conn.channels.keys()]) leave(conn, topic)
					connections.delete(conn)
					const left = (perClient.get(client) ?? 1) - 1
					if (left > 0) perClient.set(client, left)
					else perClient.delete(client)
				})
			})
			return true
		},

		/** Sends a broadcast to every subscriber of `topic` (without the realtime: prefix); how many got it. */
		broadcast(topic: string, event: string, payload: object): number {
			const full = `realtime:${topic}`
			const set = subscribers.get(full)
			if (!set) return 0
			const frame: Frame = { joinRef: null, ref: null, topic: full, event: 'broadcast', payload: { type: 'broadcast', event, payload } }
			// Encoded once per protocol version, to UTF-8 too, not once per subscriber (a text frame all the same).
			const encoded = new Map<Vsn, Buffer>()
			let sent = 0
			for (const conn of set) {
				let text = encoded.get(conn.vsn)
				if (!text) encoded.set(conn.vsn, (text = Buffer.from(encodeFrame(conn.vsn, frame))))
				if (sendText(conn, text)) sent++
			}
			return sent
		},

		/** Open sockets and joined channels, for /metrics. */
		stats(): { sockets: number; channels: number } {
			let channels = 0
			for (const conn of connections) channels += conn.channels.size
			return { sockets: connections.size, channels }
		},

		/** The topics (without the prefix) someone on this instance is subscribed to. */
		topics(): string[] {
			return [...subscribers.keys()].map((topic) => topic.slice('realtime:'.length))
		},

		/**
		 * Closes every socket with 1001 (going away: realtime-js reconnects,
		 * through the load balancer to another instance) and gives the clients
		 * `graceMs` to answer the close frame; then cuts off those that did not.
		 */
		async close(graceMs = 1_000) {
			clearInterval(expiry)
			const open = [...connections]
			const closed = Promise.all(open.map((conn) => new Promise<void>((resolve) => (conn.ws.readyState === conn.ws.CLOSED ? resolve() : conn.ws.once('close', () => resolve())))))
			for (const conn of open) conn.ws.close(1001, 'Server shutting down')
			let timer: NodeJS.Timeout | undefined
			await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))])
			clearTimeout(timer)
			for (const conn of connections) conn.ws.terminate()
			await new Promise<void>((resolve) => wss.close(() => resolve()))
		},
	}
}

export type Relay = ReturnType<typeof createRelay>
