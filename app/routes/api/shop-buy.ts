import { isLocale } from '#app/i18n/locales'
import { runBuy } from '#app/modules/shop/buy-action.server'
import type { Route } from './+types/shop-buy'

/**
 * The buy form's answer for scripts (the shop's fetchWithRetry): JSON
 * instead of redirects, so a retried request after a lost answer can be
 * told apart from a new purchase by its idempotency key and shown in place.
 * Sign-in and unfinished accounts answer 401/403; the page's form flow then
 * takes over.
 */
export async function action({ request, context }: Route.ActionArgs) {
	const lang = new URL(request.url).searchParams.get('lang')
	if (request.method !== 'POST' || !isLocale(lang)) return Response.json({ ok: false, error: 'error-invalid-purchase' }, { status: 400 })
	let result
	try {
		result = await runBuy(request, context, lang)
	} catch (thrown) {
		// requireReadyAccount redirects forms; a script gets the reason instead.
		if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
			const signedIn = !new URL(thrown.headers.get('location') ?? '/', 'http://x').pathname.endsWith('/login')
			return Response.json(
				{ ok: false, error: signedIn ? 'error-account-incomplete' : 'error-not-authenticated' },
				{ status: signedIn ? 403 : 401 },
			)
		}
		throw thrown
	}
	if (!result.ok) return Response.json({ ok: false, error: result.code }, { status: result.status })
	const headers = { 'cache-control': 'no-store' }
	if (result.outcome.kind === 'checkout') return Response.json({ ok: true, checkoutUrl: result.outcome.url }, { headers })
	return Response.json(
		{ ok: true, coins: result.outcome.coins, balance: result.outcome.balance, redirectTo: result.returnPath },
		{ headers },
	)
}

export function loader() {
	return new Response(null, { status: 405, headers: { allow: 'POST' } })
}
