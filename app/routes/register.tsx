import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { data, redirect, useSearchParams } from 'react-router'
import type { Route } from './+types/register'
import { SignUpForm } from '#app/modules/account/auth-forms'
import { RESEND_COOLDOWN_SECONDS } from '#app/modules/account/confirmation-panel'
import { PageTitle } from '#app/components/page-title'
import { servicesContext, viewerContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { dataWithFlash } from '#app/modules/flash/flash.server'
import type { Locale } from '#app/i18n/locales'
import { failureMessage } from '#app/modules/account/messages'
import { returnPath } from '#app/modules/account/return-path.server'
import { ResendSchema, SignUpSchema } from '#app/modules/account/schemas'

export function loader({ request, context }: Route.LoaderArgs) {
	if (context.get(viewerContext)) throw redirect(returnPath(request))
	return null
}

export async function action({ request, context, params }: Route.ActionArgs) {
	const { accounts } = context.get(servicesContext).platform
	const t = getInstance(context).t
	const locale = params.lang as Locale
	const formData = await request.formData()
	const redirectTo = returnPath(request, formData.get('redirectTo')?.toString())

	if (formData.get('intent') === 'resend') {
		const submission = parseWithZod(formData, { schema: ResendSchema })
		if (submission.status !== 'success') throw data(null, { status: 400 })
		const { email } = submission.value
		const result = await accounts.resendConfirmation(request, { email, locale, redirectTo })
		if (!result.ok) {
			const seconds = result.error.code === 'error-rate-limited' ? Number(result.error.reasons?.[0] ?? RESEND_COOLDOWN_SECONDS) : 0
			return data(
				{ result: null, sent: { email, secondsLeft: seconds, at: Date.now() }, error: result.error.code },
				{ status: result.error.status, headers: result.headers },
			)
		}
		return dataWithFlash(
			context,
			{ result: null, sent: { email, secondsLeft: RESEND_COOLDOWN_SECONDS, at: Date.now() }, error: null },
			'success',
			t('auth.email-confirm-resend-success', { email }),
			{ headers: result.headers },
		)
	}

	const submission = parseWithZod(formData, { schema: SignUpSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password'] }), sent: null, error: null }, { status: 400 })
	}
	const result = await accounts.signUp(request, { ...submission.value, locale, redirectTo })
	if (!result.ok) {
		return data(
			{ result: submission.reply({ formErrors: [failureMessage(result.error)], hideFields: ['password'] }), sent: null, error: null },
			{ status: result.error.status, headers: result.headers },
		)
	}
	return dataWithFlash(
		context,
		{ result: null, sent: { email: submission.value.email, secondsLeft: RESEND_COOLDOWN_SECONDS, at: Date.now() }, error: null },
		'success',
		{ message: t('auth.sign-up-success'), description: t('auth.sign-up-success-description') },
		{ headers: result.headers },
	)
}

export default function RegisterPage({ actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const [searchParams] = useSearchParams()
	return (
		<div className="auth-page">
			<PageTitle title={t('pages.register.title')} />
			<h1>{t('pages.register.title')}</h1>
			<SignUpForm lang={params.lang} redirectTo={searchParams.get('redirectTo') ?? ''} actionData={actionData} />
		</div>
	)
}
