import { data } from 'react-router'

/** A JSON request (a fetch from a script) rather than a form post: answered with JSON instead of a redirect. */
export function wantsJson(request: Request): boolean {
	return request.headers.get('content-type')?.includes('application/json') ?? false
}

/** What a thrown 404 carries; the error page translates it. */
export type NotFoundData = { kind: 'not-found' | 'invalid-route'; path: string }

export function isNotFoundData(value: unknown): value is NotFoundData {
	return (
		typeof value === 'object' &&
		value !== null &&
		'kind' in value &&
		(value.kind === 'not-found' || value.kind === 'invalid-route') &&
		'path' in value &&
		typeof value.path === 'string'
	)
}

/** 404 'Page not found: {path}' (docs/product.md §3.3): no route, or no such record. */
export function notFound(request: Request): never {
	const { pathname } = new URL(request.url)
	throw data({ kind: 'not-found', path: pathname } satisfies NotFoundData, { status: 404 })
}

/** 404 'Page Not Found: {path}': the route matched but its validity check failed (docs/product.md §3.3). */
export function invalidRoute(request: Request): never {
	const { pathname } = new URL(request.url)
	throw data({ kind: 'invalid-route', path: pathname } satisfies NotFoundData, { status: 404 })
}
