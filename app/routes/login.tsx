import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { failureMessage } from '#app/modules/account/messages'
import type { Route } from './+types/login'
import { SignInMethods } from '#app/modules/account/auth-forms'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import { translateError } from '#app/i18n/errors'
import { PageTitle } from '#app/components/page-title'
import { servicesContext, viewerContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { clearReturnPath, returnPath } from '#app/modules/account/return-path.server'
import { SignInSchema, TotpCodeSchema } from '#app/modules/account/schemas'
import { isOAuthProvider } from '#app/modules/account/rules.server'
import { refusalStatus } from '#app/utils/refusal.server'

export function loader({ request, context }: Route.LoaderArgs) {
	// Already signed in: nothing to do here.
	if (context.get(viewerContext)) throw redirect(returnPath(request))
	return null
}

function withHeaders(headers: Headers, extra: Headers | undefined) {
	extra?.forEach((value, key) => headers.append(key, value))
	return headers
}

export async function action({ request, context, params }: Route.ActionArgs) {
	const { accounts } = context.get(servicesContext).platform
	const t = getInstance(context).t
	const formData = await request.formData()
	const intent = formData.get('intent')
	const next = returnPath(request, formData.get('redirectTo')?.toString())

	if (intent === 'oauth') {
		const provider = formData.get('provider')
		if (!isOAuthProvider(provider)) throw data(null, { status: 400 })
		const result = await accounts.startOAuth(request, { provider, redirectTo: next })
		// A provider that is not configured or did not answer: the toast, on the sign-in page.
		if (!result.ok) {
			const back = `/${params.lang}/login?${new URLSearchParams({ redirectTo: next })}`
			return redirectWithError(back, translateError(t, failureMessage(result.error), params.lang), { headers: result.headers })
		}
		return redirect(result.data.url, { headers: result.headers })
	}

	if (intent === 'totp') {
		const submission = parseWithZod(formData, { schema: TotpCodeSchema })
		if (submission.status !== 'success') return data({ intent: 'totp' as const, result: submission.reply(), error: null }, { status: refusalStatus(request, 400) })
		const result = await accounts.verifySignInTotp(request, submission.value)
		if (!result.ok) {
			return data(
				{ intent: 'totp' as const, result: submission.reply({ formErrors: [failureMessage(result.error)], hideFields: ['code'] }), error: null },
				{ status: refusalStatus(request, result.error.status), headers: result.headers },
			)
		}
		return redirectWithSuccess(next, t('auth.sign-in-success'), { headers: withHeaders(result.headers, new Headers({ 'set-cookie': clearReturnPath() })) })
	}

	const submission = parseWithZod(formData, { schema: SignInSchema })
	if (submission.status !== 'success') {
		return data({ intent: 'password' as const, result: submission.reply({ hideFields: ['password'] }), error: null }, { status: refusalStatus(request, 400) })
	}
	const result = await accounts.signIn(request, submission.value)
	if (!result.ok) {
		return data(
			{ intent: 'password' as const, result: submission.reply({ formErrors: [failureMessage(result.error)], hideFields: ['password'] }), error: null },
			{ status: refusalStatus(request, result.error.status), headers: result.headers },
		)
	}
	if (result.data.totpRequired) {
		const url = new URL(`/${params.lang}/login`, request.url)
		url.searchParams.set('step', 'totp')
		url.searchParams.set('redirectTo', next)
		return redirect(url.pathname + url.search, { headers: result.headers })
	}
	return redirectWithSuccess(next, t('auth.sign-in-success'), { headers: withHeaders(result.headers, new Headers({ 'set-cookie': clearReturnPath() })) })
}

export default function LoginPage({ actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const [searchParams] = useSearchParams()
	const redirectTo = searchParams.get('redirectTo') ?? ''
	const totpStep = searchParams.get('step') === 'totp'
	return (
		<div className="auth-page">
			<PageTitle title={t('pages.login.title')} />
			<h1>{t('pages.login.title')}</h1>
			{totpStep ? (
				<TotpForm lastResult={actionData?.intent === 'totp' ? actionData.result : null} redirectTo={redirectTo} />
			) : (
				<SignInMethods lang={params.lang} redirectTo={redirectTo} actionData={actionData} />
			)}
		</div>
	)
}

function TotpForm({ lastResult, redirectTo }: { lastResult: SubmissionResult<string[]> | null | undefined; redirectTo: string }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'sign-in-totp',
		lastResult,
		constraint: getZodConstraint(TotpCodeSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TotpCodeSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="stack">
			<p>{t('auth.totp-description')}</p>
			<input type="hidden" name="redirectTo" value={redirectTo} />
			<Field
				label={t('auth.totp-code')}
				inputProps={{ ...getInputProps(fields.code, { type: 'text' }), autoComplete: 'one-time-code', inputMode: 'numeric', autoFocus: true }}
				errors={fields.code.errors}
			/>
			<ErrorList id={form.errorId} errors={form.errors} />
			<SubmitButton intent="totp">{t('auth.totp-submit')}</SubmitButton>
		</Form>
	)
}
