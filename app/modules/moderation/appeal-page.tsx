import { Form, Link } from 'react-router'
import { SubmitButton } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { translateError } from '#app/i18n/errors'
import type { Locale } from '#app/i18n/locales'
import { useTranslation } from '#app/i18n/translation'
import type { AppealActionData, MyDecision } from './appeal.server'
import { APPEALABLE, MODERATION_LIMITS } from './decision-schemas'
import { formatWhen } from './when'

/**
 * A decision as the user it affected reads it (/{lang}/appeal/:decisionId,
 * the link in the statement of reasons): what was decided, about which dare,
 * why, under which rule, whether automated means were involved; then the
 * appeal form while the decision can be appealed, or where the appeal stands.
 */
export function AppealPage({ decision, lang, failed }: { decision: MyDecision; lang: Locale; failed: AppealActionData | null }) {
	const { t, i18n } = useTranslation()
	const max = new Intl.NumberFormat(i18n.language).format(MODERATION_LIMITS.statement)
	return (
		<div className="moderation moderation--narrow">
			<PageTitle title={t('appeal.title')} noindex />
			<header>
				<h1>{t('appeal.title')}</h1>
				<p className="moderation__lead">{t('appeal.lead')}</p>
			</header>
			<section className="card moderation-item" aria-labelledby="appeal-decision">
				<h2 id="appeal-decision">{t(`appeal.what-${decision.action}`)}</h2>
				<dl className="moderation__facts">
					<dt>{t('appeal.date')}</dt>
					<dd>
						<time dateTime={decision.createdAt}>{formatWhen(lang, decision.createdAt, false)}</time>
					</dd>
					{decision.dareDescription ? (
						<>
							<dt>{t('appeal.dare')}</dt>
							<dd>
								<blockquote className="moderation__quote">{decision.dareDescription}</blockquote>
							</dd>
						</>
					) : null}
					<dt>{t('appeal.why')}</dt>
					<dd className="moderation__text">{decision.explanation}</dd>
					<dt>{t('appeal.rule')}</dt>
					<dd>
						{decision.ground === 'none' ? t('appeal.rule-none') : t('appeal.rule-text', { ground: t(`operator.grounds.${decision.ground}`) })}{' '}
						<Link to={`/${lang}/terms`}>{t('appeal.terms')}</Link>
					</dd>
					<dt>{t('appeal.automated')}</dt>
					<dd>{decision.automatedDetection ? t('appeal.automated-yes') : t('appeal.automated-no')}</dd>
				</dl>
			</section>
			{decision.outcome ? (
				<p className="notice" role="status">
					{t(decision.outcome.action === 'appeal_granted' ? 'appeal.outcome-granted' : 'appeal.outcome-upheld', {
						date: formatWhen(lang, decision.outcome.decidedAt, false),
					})}
				</p>
			) : decision.appealedAt ? (
				<p className="notice" role="status">
					{t('appeal.received', { date: formatWhen(lang, decision.appealedAt, false) })}
				</p>
			) : decision.appealable ? (
				<section className="card moderation-item" aria-labelledby="appeal-form">
					<h2 id="appeal-form">{t('appeal.form-title')}</h2>
					<p className="muted">{t('appeal.form-lead')}</p>
					<Form method="post" className="stack">
						<div className="field">
							<label htmlFor="appeal-statement">{t('appeal.statement')}</label>
							<textarea
								id="appeal-statement"
								name="statement"
								required
								maxLength={MODERATION_LIMITS.statement}
								rows={6}
								defaultValue={failed?.statement}
								aria-invalid={failed ? true : undefined}
								aria-describedby={failed ? 'appeal-statement-error appeal-statement-hint' : 'appeal-statement-hint'}
							/>
							<p id="appeal-statement-hint" className="field__hint">
								{t('appeal.statement-hint', { max })}
							</p>
							{failed ? (
								<p id="appeal-statement-error" className="form-errors" role="alert">
									{translateError(t, failed.error, i18n.language)}
								</p>
							) : null}
						</div>
						<div>
							<SubmitButton>{t('appeal.submit')}</SubmitButton>
						</div>
					</Form>
				</section>
			) : (
				<p className="notice">{(APPEALABLE as readonly string[]).includes(decision.action) ? t('appeal.too-late') : t('appeal.final')}</p>
			)}
			<p className="muted">{t('appeal.other-ways')}</p>
		</div>
	)
}
