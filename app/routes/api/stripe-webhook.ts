import { servicesContext } from '#app/context.server'
import { handleStripeWebhook } from '#app/modules/shop/service.server'
import type { Route } from './+types/stripe-webhook'

/**
 * Stripe's webhook: the only thing that credits a Stripe purchase, and how
 * disputes, reversed payout transfers and the creators' payout accounts
 * (thin events of Accounts v2, from a second event destination at this same
 * path) reach the ledger (handleStripeWebhook). The signature covers the
 * exact bytes Stripe sent, so the body is read here as raw text, with a limit
 * of its own (Stripe's events are far smaller), never through a body parser.
 */
export const WEBHOOK_BODY_LIMIT = 512 * 1024

export async function action({ request, context }: Route.ActionArgs) {
	if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } })
	const declared = Number(request.headers.get('content-length') ?? 0)
	if (declared > WEBHOOK_BODY_LIMIT) return Response.json({ received: false, error: 'too-large' }, { status: 413 })
	const raw = await readLimited(request, WEBHOOK_BODY_LIMIT)
	if (raw === null) return Response.json({ received: false, error: 'too-large' }, { status: 413 })
	const outcome = await handleStripeWebhook(context.get(servicesContext), raw, request.headers.get('stripe-signature'))
	return Response.json(outcome.body, { status: outcome.status })
}

export function loader() {
	return new Response(null, { status: 405, headers: { allow: 'POST' } })
}

/** The body as text, or null once it passes `limit` bytes (whatever Content-Length claimed). */
async function readLimited(request: Request, limit: number): Promise<string | null> {
	if (!request.body) return ''
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > limit) {
			await reader.cancel()
			return null
		}
		chunks.push(value)
	}
	return Buffer.concat(chunks).toString('utf8')
}
