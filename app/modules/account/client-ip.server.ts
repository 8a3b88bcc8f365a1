import { isIP } from 'node:net'

/**
 * The client's address for rate limiting, or null when it cannot be known.
 *
 * A Fetch `Request` carries no peer address, so the only source is
 * X-Forwarded-For, and only when the deployment says proxies append to it
 * (`trustProxy` hops): any client can send the header itself, so without a
 * proxy it is ignored entirely. With n trusted proxies the client is the
 * n-th entry from the right; entries further left were written by the
 * client and prove nothing.
 *
 * IPv6 addresses are reduced to their /64: one subscriber usually holds a
 * whole /64 and could otherwise rotate through it to dodge per-IP limits.
 */
export function clientIp(request: Request, trustProxy: number): string | null {
	return forwardedClientIp(request.headers.get('x-forwarded-for'), trustProxy)
}

/** The same from an X-Forwarded-For header's value (a Node request's: several headers joined by commas). */
export function forwardedClientIp(header: string | string[] | null | undefined, trustProxy: number): string | null {
	if (trustProxy < 1 || !header) return null
	if (Array.isArray(header)) header = header.join(',')
	const hops = header
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
	const candidate = hops[hops.length - trustProxy]
	if (!candidate) return null
	return normaliseIp(candidate)
}

export function normaliseIp(raw: string): string | null {
	let address = raw
	// "[2001:db8::1]:1234" and "203.0.113.7:1234" (some proxies add the port).
	const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)
	if (bracketed?.[1]) address = bracketed[1]
	else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'))

	const version = isIP(address)
	if (version === 4) return address
	if (version !== 6) return null
	const groups = expandIpv6(address)
	if (!groups) return null
	// IPv4-mapped (::ffff:a.b.c.d): the IPv4 client it stands for.
	if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
		const high = groups[6] ?? 0
		const low = groups[7] ?? 0
		return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
	}
	return `${groups
		.slice(0, 4)
		.map((g) => g.toString(16))
		.join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address (already validated by isIP). */
function expandIpv6(address: string): number[] | null {
	let text = address.split('%')[0] ?? ''
	// A trailing dotted IPv4 part counts as two groups.
	const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
	if (dotted) {
		const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
		text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
	}
	const [head = '', tail] = text.split('::')
	const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)))
	const left = parse(head)
	const right = tail === undefined ? [] : parse(tail)
	const missing = 8 - left.length - right.length
	if (tail === undefined ? missing !== 0 : missing < 0) return null
	const groups = [...left, ...Array.from({ length: missing }, () => 0), ...right]
	return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}
