import { useTranslation } from '#app/i18n/translation'
import { LanguageLinks } from '#app/components/language-switcher'
import type { Locale } from '#app/i18n/locales'

/** The languages as a row of choices with the current one marked. */
export function LanguageSection({ locale }: { locale: Locale }) {
	const { t } = useTranslation()
	return (
		<section className="card settings__section" aria-labelledby="settings-language">
			<h2 id="settings-language">{t('nav.language')}</h2>
			<LanguageLinks locale={locale} className="choice-list" linkClassName="choice" />
		</section>
	)
}
