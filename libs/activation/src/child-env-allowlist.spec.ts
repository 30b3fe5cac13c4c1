import {
  childEnvEntryProblem,
  DEFAULT_CHILD_ENV_KEYS,
  firstRefusedChildEnvKey,
  isChildEnvEntryCovered,
  isChildEnvKeyAllowed,
  narrowChildEnvKeys,
  SPAWNER_OWNED_ENV_KEYS,
} from './child-env-allowlist';

// Names a language runtime, package manager, dynamic loader, libc, shell or common tool reads as configuration:
// each can make the child run code, load a library, read a config file or reach a host the argv check never saw.
// Gathered from npm's own sources (@npmcli/config reads every /^npm_config_/i variable and npm copies
// `node-options` into NODE_OPTIONS; libnpmexec and @npmcli/run-script read the rest listed under npm), the
// runtimes' documentation and the loaders' (ld.so(8), glibc). The default allowlist must allow none of them.
const RUNTIME_CONFIGURATION_KEYS: readonly string[] = [
  // npm and its libraries
  'npm_config_node_options',
  'NPM_CONFIG_NODE_OPTIONS',
  'Npm_Config_Node_Options',
  'npm_config_script_shell',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_registry',
  'npm_config_prefix',
  'npm_config_cache',
  'npm_config_onload_script',
  'npm_config_git',
  'npm_config_shell',
  'npm_config_call',
  'npm_config_ignore_scripts',
  'npm_config_user_agent',
  'npm_execpath',
  'npm_node_execpath',
  'npm_lifecycle_event',
  'NPM_TOKEN',
  'NPM_ID_TOKEN',
  'SIGSTORE_ID_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'GITHUB_SERVER_URL',
  'PREFIX',
  'DESTDIR',
  'INIT_CWD',
  'NODE',
  'COLOR',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  // other JavaScript package managers and runtimes
  'YARN_RC_FILENAME',
  'YARN_YARN_PATH',
  'YARN_IGNORE_PATH',
  'PNPM_HOME',
  'pnpm_config_node_options',
  'COREPACK_HOME',
  'COREPACK_NPM_REGISTRY',
  'COREPACK_ENABLE_STRICT',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'NODE_ENV',
  'NODE_DEBUG',
  'NODE_V8_COVERAGE',
  'NODE_REDIRECT_WARNINGS',
  'NODE_ICU_DATA',
  'UV_THREADPOOL_SIZE',
  'BUN_INSTALL',
  'BUN_CONFIG_REGISTRY',
  'BUN_OPTIONS',
  'DENO_DIR',
  'DENO_CERT',
  'DENO_AUTH_TOKENS',
  'DENO_INSTALL_ROOT',
  // Python and its package managers
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PYTHONUSERBASE',
  'PYTHONWARNINGS',
  'PYTHONBREAKPOINT',
  'PYTHONSAFEPATH',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_CONFIG_FILE',
  'PIP_REQUIRE_VIRTUALENV',
  'UV_INDEX_URL',
  'UV_PYTHON',
  'UV_CONFIG_FILE',
  'UV_TOOL_DIR',
  'POETRY_HOME',
  'PIPX_HOME',
  // Ruby, Perl, PHP, Lua
  'RUBYOPT',
  'RUBYLIB',
  'RUBY_GC_HEAP_INIT_SLOTS',
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_GEMFILE',
  'BUNDLE_PATH',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'PERL_MB_OPT',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'LUA_PATH',
  'LUA_CPATH',
  'LUA_INIT',
  // JVM
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'JAVA_HOME',
  'CLASSPATH',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'GRADLE_USER_HOME',
  // Go, Rust, .NET
  'GOFLAGS',
  'GOPATH',
  'GOPROXY',
  'GOROOT',
  'GOTOOLCHAIN',
  'CGO_CFLAGS',
  'CARGO_HOME',
  'CARGO_TARGET_DIR',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'RUSTFLAGS',
  'DOTNET_ROOT',
  'DOTNET_STARTUP_HOOKS',
  // the dynamic loader and libc
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'ld_preload',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'GCONV_PATH',
  'LOCPATH',
  'GLIBC_TUNABLES',
  'MALLOC_CHECK_',
  'MALLOC_ARENA_MAX',
  'HOSTALIASES',
  'RES_OPTIONS',
  'LOCALDOMAIN',
  'NLSPATH',
  'TZ',
  'TZDIR',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  // shells and the programs tools start
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'IFS',
  'CDPATH',
  'BROWSER',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'LESSOPEN',
  'MANPAGER',
  'TERMINFO',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_RUNTIME_DIR',
  // git, TLS and HTTP clients, proxies
  'GIT_EXEC_PATH',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_ASKPASS',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_KEY_0',
  'GIT_PROXY_COMMAND',
  'GIT_TEMPLATE_DIR',
  'SSH_ASKPASS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'SSLKEYLOGFILE',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
  'OPENSSL_MODULES',
  'CURL_CA_BUNDLE',
  'CURL_HOME',
  'REQUESTS_CA_BUNDLE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
  'no_proxy',
  'NOPROXY',
  'GLOBAL_AGENT_HTTP_PROXY',
  // cloud and container tooling that runs commands or reads credentials from where it is pointed
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_PROFILE',
  'AWS_ACCESS_KEY_ID',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUDSDK_CONFIG',
  'AZURE_CONFIG_DIR',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'KUBECONFIG',
  // what the spawner owns
  'PATH',
  'HOME',
  'SHELL',
  'USER',
  'LOGNAME',
  'TERM',
  // other spellings of allowed names: compared exactly
  'api_key',
  'Api_Key',
  'mcp_token',
  'Mcp_Token',
  'github_token',
];

describe('the default child env allowlist', () => {
  it.each(RUNTIME_CONFIGURATION_KEYS)('does not allow %s', (key) => {
    expect(isChildEnvKeyAllowed(key, DEFAULT_CHILD_ENV_KEYS)).toBe(false);
  });

  it.each(['MCP_SERVER_TOKEN', 'MCP_X', 'API_KEY', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'LOG_LEVEL'])(
    'allows %s',
    (key) => {
      expect(isChildEnvKeyAllowed(key, DEFAULT_CHILD_ENV_KEYS)).toBe(true);
    },
  );

  it('is made of valid entries only', () => {
    expect(DEFAULT_CHILD_ENV_KEYS.map(childEnvEntryProblem)).toEqual(DEFAULT_CHILD_ENV_KEYS.map(() => null));
  });
});

describe('isChildEnvKeyAllowed', () => {
  const list = ['GITHUB_TOKEN', 'MYCORP_*'];

  it('allows an exact name and only that spelling', () => {
    expect(isChildEnvKeyAllowed('GITHUB_TOKEN', list)).toBe(true);
    expect(isChildEnvKeyAllowed('github_token', list)).toBe(false);
    expect(isChildEnvKeyAllowed('GITHUB_TOKEN_X', list)).toBe(false);
    expect(isChildEnvKeyAllowed('XGITHUB_TOKEN', list)).toBe(false);
    expect(isChildEnvKeyAllowed('GITHUB_TOKE', list)).toBe(false);
  });

  it('allows names that start with a prefix, compared with its case', () => {
    expect(isChildEnvKeyAllowed('MYCORP_REGION', list)).toBe(true);
    expect(isChildEnvKeyAllowed('MYCORP_', list)).toBe(true);
    expect(isChildEnvKeyAllowed('mycorp_region', list)).toBe(false);
    expect(isChildEnvKeyAllowed('MYCORPX', list)).toBe(false);
    expect(isChildEnvKeyAllowed('X_MYCORP_REGION', list)).toBe(false);
  });

  it.each(['', 'A-B', '1X', 'A B', 'MYCORP_\0', 'GITHUB_TOKEN\0', 'MYCORP_*', '*'])(
    'refuses the malformed name %j whatever the list',
    (key) => {
      expect(isChildEnvKeyAllowed(key, [...list, key])).toBe(false);
    },
  );

  it('refuses every name with an empty list', () => {
    expect(isChildEnvKeyAllowed('GITHUB_TOKEN', [])).toBe(false);
  });

  it('refuses a name the spawner owns even when a (malformed) list names it', () => {
    for (const key of SPAWNER_OWNED_ENV_KEYS) expect(isChildEnvKeyAllowed(key, [key, 'H*', '*'])).toBe(false);
  });

  it('lets an invalid entry allow nothing', () => {
    expect(isChildEnvKeyAllowed('NPM_CONFIG_X', ['*'])).toBe(false);
    expect(isChildEnvKeyAllowed('NPM_CONFIG_X', ['N*'])).toBe(false);
    expect(isChildEnvKeyAllowed('NPM_CONFIG_X', ['NPM*'])).toBe(false);
  });

  it('names the first refused key in the given order', () => {
    expect(firstRefusedChildEnvKey(['GITHUB_TOKEN', 'B_KEY', 'A_KEY'], list)).toBe('B_KEY');
    expect(firstRefusedChildEnvKey(['GITHUB_TOKEN', 'MYCORP_A'], list)).toBeNull();
    expect(firstRefusedChildEnvKey([], [])).toBeNull();
  });
});

describe('childEnvEntryProblem', () => {
  it.each(['GITHUB_TOKEN', 'A', '_X', 'MYCORP_*', 'A_*', 'my_lower_*', 'HOMEBREW_X'])(
    'accepts %j',
    (entry) => {
      expect(childEnvEntryProblem(entry)).toBeNull();
    },
  );

  it.each([
    '',
    '*',
    '_*',
    'A*',
    'MYCORP*',
    'MY*CORP_',
    'MYCORP_**',
    '1X',
    'A-B',
    'A B',
    'GITHUB_TOKEN\0',
    'MYCORP_\0*',
    'X'.repeat(257),
  ])('refuses %j as invalid', (entry) => {
    expect(childEnvEntryProblem(entry)).toBe('invalid_entry');
  });

  it.each(['PATH', 'HOME', 'SHELL', 'USER', 'LOGNAME', 'TERM'])(
    'refuses %j: the spawner sets it',
    (entry) => {
      expect(childEnvEntryProblem(entry)).toBe('covers_spawner_owned_key');
    },
  );

  it('accepts a prefix that only resembles a spawner-owned name (none of them ends with _)', () => {
    expect(childEnvEntryProblem('HOME_*')).toBeNull();
    expect(childEnvEntryProblem('PATH_*')).toBeNull();
  });
});

describe('tenant narrowing', () => {
  const pool = ['GITHUB_TOKEN', 'MYCORP_*'];

  it('covers an exact tenant name by the same name or a pool prefix', () => {
    expect(isChildEnvEntryCovered('GITHUB_TOKEN', pool)).toBe(true);
    expect(isChildEnvEntryCovered('MYCORP_REGION', pool)).toBe(true);
    expect(isChildEnvEntryCovered('SLACK_BOT_TOKEN', pool)).toBe(false);
    expect(isChildEnvEntryCovered('github_token', pool)).toBe(false);
  });

  it('covers a tenant prefix only by a pool prefix it starts with', () => {
    expect(isChildEnvEntryCovered('MYCORP_*', pool)).toBe(true);
    expect(isChildEnvEntryCovered('MYCORP_EU_*', pool)).toBe(true);
    expect(isChildEnvEntryCovered('MY_*', pool)).toBe(false);
    expect(isChildEnvEntryCovered('GITHUB_*', pool)).toBe(false);
    expect(isChildEnvEntryCovered('GITHUB_TOKEN_*', pool)).toBe(false);
  });

  it('covers no invalid tenant entry', () => {
    expect(isChildEnvEntryCovered('*', pool)).toBe(false);
    expect(isChildEnvEntryCovered('MYCORP*', pool)).toBe(false);
    expect(isChildEnvEntryCovered('', pool)).toBe(false);
    expect(isChildEnvEntryCovered('MYCORP_\0', pool)).toBe(false);
  });

  it("keeps the pool's list when the tenant chose none, else the tenant entries the pool covers", () => {
    expect(narrowChildEnvKeys(null, pool)).toEqual(pool);
    expect(narrowChildEnvKeys([], pool)).toEqual([]);
    expect(narrowChildEnvKeys(['MYCORP_EU_*', 'SLACK_BOT_TOKEN', 'GITHUB_TOKEN'], pool)).toEqual([
      'MYCORP_EU_*',
      'GITHUB_TOKEN',
    ]);
  });

  it('never widens: a narrowed list allows only names the pool allows', () => {
    const narrowed = narrowChildEnvKeys(['MYCORP_EU_*', 'NPM_CONFIG_X', 'GITHUB_TOKEN'], pool);
    for (const key of ['MYCORP_EU_A', 'MYCORP_US_A', 'NPM_CONFIG_X', 'GITHUB_TOKEN', 'OTHER']) {
      if (isChildEnvKeyAllowed(key, narrowed)) expect(isChildEnvKeyAllowed(key, pool)).toBe(true);
    }
    expect(isChildEnvKeyAllowed('MYCORP_US_A', narrowed)).toBe(false);
  });
});
