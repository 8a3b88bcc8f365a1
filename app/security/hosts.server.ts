import { isIP } from 'node:net'
import { LOOPBACK_HOSTNAMES, type Env } from '#app/env.server'

/**
 * Which Host headers the app answers for, and which clients count as "this
 * machine". Both guard against a request that only pretends to be local:
 * the Host header and X-Forwarded-For are written by the client, so local
 * means the TCP peer's address (the socket's remoteAddress) and nothing else.
 */

/**
 * The peer address of a loopback connection: 127.0.0.0/8, ::1, and the
 * IPv4-mapped form ::ffff:127.x.y.z a dual-stack socket reports. Anything
 * else, including a private LAN address or the Docker bridge's gateway (how
 * a published container port sees every client), is remote.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
	if (!address) return false
	const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
	if (isIP(v4) === 4) return v4.split('.')[0] === '127'
	return address === '::1' || address === '0:0:0:0:0:0:0:1'
}

/**
 * The hosts (lower-case, with the port when not the scheme's default) a
 * request may name: APP_URL's, the LOCALE_DOMAINS hosts, ALLOWED_HOSTS, and
 * the loopback names in development or when APP_URL is itself loopback (the
 * developer's `npm start`, where http://127.0.0.1:3000 and
 * http://localhost:3000 are the same server).
 */
export function allowedHosts(env: Pick<Env, 'APP_URL' | 'ALLOWED_HOSTS' | 'LOCALE_DOMAINS' | 'NODE_ENV' | 'PORT'>): Set<string> {
	const app = new URL(env.APP_URL)
	const hosts = new Set<string>([app.host.toLowerCase()])
	for (const host of Object.keys(env.LOCALE_DOMAINS)) hosts.add(host)
	for (const host of env.ALLOWED_HOSTS) hosts.add(host)
	if (env.NODE_ENV === 'development' || LOOPBACK_HOSTNAMES.includes(app.hostname)) {
		for (const name of LOOPBACK_HOSTNAMES) {
			hosts.add(name)
			hosts.add(`${name}:${env.PORT}`)
			if (app.port) hosts.add(`${name}:${app.port}`)
		}
	}
	return hosts
}

/** Whether a Host header names one of the allowed hosts (a default port may be spelled out or not). */
export function isAllowedHost(header: string | undefined, allowed: ReadonlySet<string>): boolean {
	if (!header) return false
	const host = header.trim().toLowerCase()
	if (allowed.has(host)) return true
	// TLS usually ends at a proxy, so either default port may be spelled out.
	const withoutDefaultPort = host.replace(/:(80|443)$/, '')
	return withoutDefaultPort !== host && allowed.has(withoutDefaultPort)
}

/**
 * A request from this machine and not relayed by a proxy on it: the TCP peer
 * is loopback and no forwarding header is present (a local proxy makes every
 * client look local). The headers can only take "local" away, never grant it.
 */
export function isLocalRequest(clientAddress: string | undefined, headers: { get(name: string): string | null }): boolean {
	if (headers.get('x-forwarded-for') !== null || headers.get('forwarded') !== null || headers.get('x-real-ip') !== null) return false
	return isLoopbackAddress(clientAddress)
}
