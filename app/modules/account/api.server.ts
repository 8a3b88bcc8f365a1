import { data, type RouterContextProvider } from 'react-router'
import { viewerContext } from '#app/context.server'
import { getLocale } from '#app/i18n/i18next.server'
import { safeRedirectPath } from '#app/utils/redirect'

/**
 * What the /api/auth/* routes share: they answer a form post with a redirect
 * back and a toast (works without JavaScript) and a JSON post with JSON
 * (docs/decisions/009-state-changes-are-posts.md).
 */
export type RouteContext = Readonly<RouterContextProvider>

/** A form or JSON body as strings; anything else in it is an empty string. */
export async function readBody(request: Request): Promise<Record<string, string>> {
	if (request.headers.get('content-type')?.includes('application/json')) {
		const body: unknown = await request.json().catch(() => null)
		if (!body || typeof body !== 'object') return {}
		return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : '']))
	}
	const form = await request.formData()
	return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']))
}

/** Where a form post goes back to: its `redirectTo`, when it is a path of this site. */
export function backTo(context: RouteContext, body: Record<string, string>): string {
	return safeRedirectPath(body.redirectTo, `/${getLocale(context)}`)
}

export function requireViewer(context: RouteContext) {
	const viewer = context.get(viewerContext)
	if (!viewer) throw data({ error: 'error-not-authenticated' }, { status: 401 })
	return viewer
}

/** State changes are POSTs only: a link or an image on another site must not trigger them. */
export function postOnly(): never {
	throw data(null, { status: 405, headers: { Allow: 'POST' } })
}
