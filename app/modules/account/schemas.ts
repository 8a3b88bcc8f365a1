import { z } from '#app/utils/zod'
import { USERNAME_MAX, USERNAME_PATTERN } from './username'

export { USERNAME_MAX, USERNAME_PATTERN }

/**
 * One Zod schema per form, used by Conform in the browser and in the action
 * (docs/product.md §7.1). Messages are translation keys under `validation.`; the
 * form renders them with t().
 */
export const EMAIL_MAX = 100
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 100

export const EmailSchema = z
	.string({ error: 'validation.email-required' })
	.trim()
	.max(EMAIL_MAX, { error: 'validation.email-too-long' })
	.pipe(z.email({ error: 'validation.email-invalid' }))

export const PasswordSchema = z
	.string({ error: 'validation.password-required' })
	.min(PASSWORD_MIN, { error: 'validation.password-too-short' })
	.max(PASSWORD_MAX, { error: 'validation.password-too-long' })

export const UsernameSchema = z
	.string({ error: 'validation.username-required' })
	.trim()
	.toLowerCase()
	.min(1, { error: 'validation.username-required' })
	.max(USERNAME_MAX, { error: 'validation.username-too-long' })
	.regex(USERNAME_PATTERN, { error: 'validation.username-invalid' })

export const SignInSchema = z.object({ email: EmailSchema, password: PasswordSchema })
export const SignUpSchema = z.object({ email: EmailSchema, password: PasswordSchema })
export const ResendSchema = z.object({ email: EmailSchema })
export const PasswordResetRequestSchema = z.object({ email: EmailSchema })
/**
 * `token`: the reset link's token. Empty when the browser already holds a
 * recovery session (Supabase: a recovery link through /confirm, then the
 * two-factor step); the platform decides whether that is enough.
 */
export const NewPasswordSchema = z.object({ token: z.string().max(512).default(''), password: PasswordSchema })
export const TotpCodeSchema = z.object({
	code: z
		.string({ error: 'validation.code-required' })
		.trim()
		.min(6, { error: 'validation.code-invalid' })
		.max(32, { error: 'validation.code-invalid' }),
})
export const UsernameFormSchema = z.object({ username: UsernameSchema })
