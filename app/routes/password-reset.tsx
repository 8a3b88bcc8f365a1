import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { data, Form, redirect } from 'react-router'
import { redirectWithSuccess } from 'remix-toast'
import { failureMessage } from '#app/modules/account/messages'
import type { Route } from './+types/password-reset'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { servicesContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { NewPasswordSchema, PasswordResetRequestSchema } from '#app/modules/account/schemas'

export function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	// Without ?token= the change form still shows: a recovery session may be
	// enough (Supabase), and otherwise the answer is the invalid-link error.
	return { changePassword: url.searchParams.get('changePassword') === 'true', token: url.searchParams.get('token') ?? '' }
}

export async function action({ request, context, params }: Route.ActionArgs) {
	const { accounts } = context.get(servicesContext).platform
	const t = getInstance(context).t
	const formData = await request.formData()
	if (formData.get('intent') === 'change') {
		const submission = parseWithZod(formData, { schema: NewPasswordSchema })
		if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }), sent: false }, { status: 400 })
		const result = await accounts.resetPassword(request, submission.value)
		if (!result.ok && result.error.reasons?.includes('aal2-required')) {
			// An account with two-factor sign-in (Supabase wants aal2 to change a
			// password): the link signed this browser in; the code comes next, then
			// this form again, which the recovery session may submit without a token.
			const back = `/${params.lang}/password-reset?changePassword=true`
			return redirect(`/${params.lang}/login?${new URLSearchParams({ step: 'totp', redirectTo: back })}`, { headers: result.headers })
		}
		if (!result.ok) {
			return data(
				{ result: submission.reply({ formErrors: [failureMessage(result.error)], hideFields: ['password'] }), sent: false },
				{ status: result.error.status, headers: result.headers },
			)
		}
		return redirectWithSuccess(`/${params.lang}`, t('auth.password-updated'), { headers: result.headers })
	}
	const submission = parseWithZod(formData, { schema: PasswordResetRequestSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 400 })
	const result = await accounts.requestPasswordReset(request, {
		email: submission.value.email,
		locale: params.lang as Locale,
		redirectTo: `/${params.lang}`,
	})
	if (!result.ok) {
		return data({ result: submission.reply({ formErrors: [failureMessage(result.error)] }), sent: false }, { status: result.error.status, headers: result.headers })
	}
	// The same answer whether or not the address has an account.
	return data({ result: submission.reply({ resetForm: true }), sent: true }, { headers: result.headers })
}

export default function PasswordResetPage({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<div className="auth-page">
			<PageTitle title={t('pages.password-reset.title')} />
			<h1>{t('pages.password-reset.title')}</h1>
			{loaderData.changePassword ? (
				<NewPasswordForm token={loaderData.token} lastResult={actionData?.result} />
			) : actionData?.sent ? (
				<p role="status" className="notice">
					{t('auth.reset-sent')}
				</p>
			) : (
				<RequestForm lastResult={actionData?.result} />
			)}
		</div>
	)
}

type LastResult = SubmissionResult<string[]> | null | undefined

function RequestForm({ lastResult }: { lastResult: LastResult }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'password-reset',
		lastResult,
		constraint: getZodConstraint(PasswordResetRequestSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordResetRequestSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="stack">
			<p>{t('auth.reset-description')}</p>
			<Field
				label={t('auth.email')}
				inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', maxLength: 100 }}
				errors={fields.email.errors}
			/>
			<ErrorList id={form.errorId} errors={form.errors} />
			<SubmitButton intent="request">{t('auth.reset-submit')}</SubmitButton>
		</Form>
	)
}

function NewPasswordForm({ token, lastResult }: { token: string; lastResult: LastResult }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'password-change',
		lastResult,
		constraint: getZodConstraint(NewPasswordSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: NewPasswordSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="stack">
			<input type="hidden" name="token" value={token} />
			<Field
				label={t('auth.new-password')}
				inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', maxLength: 100 }}
				errors={fields.password.errors}
				hint={t('auth.password-hint')}
			/>
			<ErrorList id={form.errorId} errors={form.errors} />
			<SubmitButton intent="change">{t('auth.update-password')}</SubmitButton>
		</Form>
	)
}
