import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	{ ignores: ['build/**', '.react-router/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.ci/tmp/**', '.scratch*'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx,js}'],
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		plugins: { 'react-hooks': reactHooks },
		rules: {
			...reactHooks.configs.recommended.rules,
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-syntax': [
				'error',
				{
					selector: "MemberExpression[object.name='process'][property.name='env']",
					message: 'Read settings through getEnv() (app/env.server.ts), parsed once at boot.',
				},
			],
		},
	},
	{
		// Boot code, scripts and tests may read the raw environment.
		files: ['server.js', 'app/env.server.ts', 'app/boot.server.ts', 'scripts/**', 'tests/**', 'bench/**', 'playwright.config.ts', '*.config.ts'],
		rules: { 'no-restricted-syntax': 'off' },
	},
)
