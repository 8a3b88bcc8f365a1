import { IDEMPOTENCY_KEY } from '#app/utils/idempotency-key'
import { z } from '#app/utils/zod'

/** The buy form: one per pack, every field hidden and minted by the server. */
export const BuyPackSchema = z.object({
	pack: z.string().regex(/^coins-\d{1,8}$/),
	// Minted when the page renders: a resubmitted form, a double click or a
	// retried fetch sends it again, and the purchase happens once.
	idempotencyKey: z.string().regex(IDEMPOTENCY_KEY),
	returnPath: z.string().max(2048).optional(),
})

export type BuyPackInput = z.infer<typeof BuyPackSchema>
