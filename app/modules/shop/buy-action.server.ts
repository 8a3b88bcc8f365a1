import { parseWithZod } from '@conform-to/zod/v4'
import type { RouterContextProvider } from 'react-router'
import { servicesContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import { requireReadyAccount } from '#app/modules/account/require-account.server'
import { safeRedirectPath } from '#app/utils/redirect'
import { BuyPackSchema } from './schema'
import { buyPack, type BuyOutcome } from './service.server'

export type BuyResult =
	| { ok: true; outcome: BuyOutcome; returnPath: string | null }
	| { ok: false; status: 400 | 502 | 503; code: `error-${string}`; pack: string | null }

/**
 * The buy form's server half, shared by the shop page's action (forms, with
 * or without JavaScript) and /api/shop/buy (the script's retried fetch).
 * Visitors and unfinished accounts are sent on by requireReadyAccount.
 */
export async function runBuy(request: Request, context: Readonly<RouterContextProvider>, locale: string): Promise<BuyResult> {
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: BuyPackSchema })
	const rawReturnPath = formData.get('returnPath')
	const returnPath = safeRedirectPath(rawReturnPath, '') || null
	const shopPath = `/${locale}/shop${returnPath ? `?returnPath=${encodeURIComponent(returnPath)}` : ''}`
	const viewer = await requireReadyAccount(request, context, { reason: 'buy', returnTo: shopPath })
	if (submission.status !== 'success') return { ok: false, status: 400, code: 'error-invalid-purchase', pack: typeof formData.get('pack') === 'string' ? String(formData.get('pack')) : null }
	try {
		const outcome = await buyPack(context.get(servicesContext), viewer, {
			packId: submission.value.pack,
			idempotencyKey: submission.value.idempotencyKey,
			locale,
			returnPath,
		})
		return { ok: true, outcome, returnPath }
	} catch (error) {
		const known = toAppError(error)
		if (!known) throw error
		const status =
			known.code === 'error-payment-provider' ? 502 : known.code === 'error-checkout-unavailable' ? 503 : 400
		return { ok: false, status, code: known.code, pack: submission.value.pack }
	}
}
