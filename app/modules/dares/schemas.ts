import { z } from '#app/utils/zod'
import { IDEMPOTENCY_KEY } from '#app/utils/idempotency-key'
import { DARE_LIMITS } from './limits'

export { DARE_LIMITS }

const key = z.string().regex(IDEMPOTENCY_KEY)
const dareId = z.uuid()
const coins = (min: number, step: number, max: number) => z.coerce.number().int().min(min).max(max).multipleOf(step)

/** Every form of the dares panel, told apart by its submit button's intent. */
export const DareActionSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('create'),
		sessionId: z.uuid(),
		description: z.string().trim().min(DARE_LIMITS.description.min).max(DARE_LIMITS.description.max),
		reward: coins(DARE_LIMITS.reward.min, DARE_LIMITS.reward.step, DARE_LIMITS.reward.max),
		key,
	}),
	z.object({ intent: z.literal('boost'), dareId, amount: coins(DARE_LIMITS.boost.min, DARE_LIMITS.boost.step, DARE_LIMITS.boost.max), key }),
	z.object({ intent: z.literal('vote'), dareId, vote: z.enum(['yes', 'no']) }),
	// Rejecting refunds the dare's boosts: a money call, with its key.
	z.object({ intent: z.literal('reject'), dareId, key }),
	z.object({ intent: z.enum(['accept', 'start-voting']), dareId }),
])
export type DareAction = z.infer<typeof DareActionSchema>
