/** What `flowsvc --help` and each command's `--help` print: kept beside the commands, accurate to what they read. */

export const USAGE = `usage: flowsvc <command> [options]

commands:
  serve                          run the HTTP service (FLOWSVC_* environment: flowsvc serve --help)
  api-key create [--name NAME]   print a new API key for the superuser of FLOWSVC_DATA_DIR
  run <flow.json> [options]      run an exported flow once, without a server, and print its chat output
                                 (flowsvc run --help)
  validate <flow.json|dir>...    check flows without running them (flowsvc validate --help)
  cluster status|remove          what a cluster keeps on NATS, and its removal (flowsvc cluster --help)

flowsvc <command> --help describes a command; flowsvc --version prints the version.
`;

export const SERVE_USAGE = `usage: flowsvc serve

Runs the service until SIGINT or SIGTERM, configured by the environment (the README lists every variable). A
signal stops it gracefully: no new connections, the requests and runs under way finish (a second signal ends
the wait), then it exits 0.
  FLOWSVC_DATA_DIR             the store and uploaded files (default ./.flowsvc; created at first start)
  FLOWSVC_HOST, FLOWSVC_PORT   the listen address (default 127.0.0.1 and 7860; port 0: any free port)
  FLOWSVC_SUPERUSER            the superuser created at first start (default langflow)
  FLOWSVC_SUPERUSER_PASSWORD   its password (unset: generated at first start and printed once)
  FLOWSVC_SECRET_KEY           signs tokens and encrypts stored credentials (unset: generated once, kept in the data dir)
  FLOWSVC_FALLBACK_TO_ENV_VAR  flow variables nobody supplied are read from the environment (default true;
                               false for multi-tenant services)
  FLOWSVC_JOB_TIMEOUT_SECONDS  longest a run may take (default 300)
  FLOWSVC_DEFAULT_MODEL        the model empty model fields take, as provider/model (default: the first provider
                               whose key the caller has: OPENAI_API_KEY, ANTHROPIC_API_KEY, ...)
  FLOWSVC_ALLOW_PRIVATE_NETWORK  URL and API Request may fetch loopback, private-network and cloud metadata
                               addresses (default false: such a request fails the run)
  FLOWSVC_SHUTDOWN_GRACE_SECONDS  how long a stop waits for the work under way (default 30); runs still going
                               then end interrupted
  FLOWSVC_LOG_LEVEL            fatal, error, warn, info (default), debug, trace, silent
`;

export const API_KEY_USAGE = `usage: flowsvc api-key create [--name NAME] [--init]

Creates an API key for the superuser and prints it (sk-...) on stdout; stderr says which store it is in. Reads
the same environment as serve: FLOWSVC_DATA_DIR (default ./.flowsvc, relative to the current folder) or
FLOWSVC_DATABASE_URL, FLOWSVC_SUPERUSER (default langflow). Run it beside the running service, with its settings.
  --name NAME   names the key (default cli)
  --init        where FLOWSVC_DATA_DIR holds no store yet, create one (and its superuser) instead of refusing
`;

export const CLUSTER_USAGE = `usage: flowsvc cluster status|remove

A cluster (instances sharing FLOWSVC_DATABASE_URL and FLOWSVC_NATS_URL) keeps one JetStream stream on NATS,
FLOWSVC_<cluster name>_RUNS, holding run logs for FLOWSVC_JOB_RETENTION_SECONDS; it stays when every instance
is stopped. Reads FLOWSVC_NATS_URL, FLOWSVC_CLUSTER_NAME and FLOWSVC_DATABASE_URL (whose database names the
cluster when FLOWSVC_CLUSTER_NAME is unset), as serve does.
  status   prints the stream's name, messages, bytes and consumers
  remove   deletes the stream and every run log in it (stop every instance first)
`;

export const RUN_USAGE = `usage: flowsvc run <flow.json> [--input TEXT] [--session-id ID] [--tweaks JSON] [--file PATH]
                   [--data-dir DIR] [--no-env]

Runs a flow exported from Langflow or flowsvc once, without a server, and prints what its Chat Output
components said, one per line. Exit status: 0 the flow ran, 1 it failed, 2 bad arguments, file or data dir.

options:
  --input TEXT    the text given to the flow's Chat Input (default: the node's own value)
  --session-id ID the session the run's messages belong to (default: the flow's id); --session ID too
  --tweaks JSON   Langflow's tweaks: {"<node id or display name>": {"<field>": value}} sets fields of one
                  node, {"<field>": value} that field on every node having it
  --file PATH     attach a file to the flow's File nodes (their path field); repeat for several files
  --data-dir DIR  a service's data dir (its FLOWSVC_DATA_DIR): the global variables stored there for its
                  superuser are used, and the run's messages are recorded there. It must already hold a
                  store; nothing else is created or changed. Default: a throwaway store, removed after the run
  --no-env        do not read flow variables from the environment
  -h, --help      this text

A field that names a global variable (a model's API key, for instance) is resolved from the variables stored in
--data-dir, then from the environment. FLOWSVC_FALLBACK_TO_ENV_VAR, the service's switch for this, is not read:
use --no-env. FLOWSVC_DATA_DIR is not read either: pass --data-dir.

environment:
  OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_API_KEY
                        the keys the model and Agent components read by default (any other variable a flow
                        names is read the same way)
  OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_BASE_URL, OLLAMA_BASE_URL
                        where the model components send their calls (a node's own base-URL field wins)
  FLOWSVC_JOB_TIMEOUT_SECONDS
                        longest the run may take (default 300); then it fails
  FLOWSVC_ALLOW_PRIVATE_NETWORK
                        URL and API Request may fetch loopback, private-network and cloud metadata addresses
                        (default false: such a request fails the run)
  FLOWSVC_SUPERUSER     with --data-dir: whose stored variables are used (default langflow)
  FLOWSVC_SECRET_KEY    with --data-dir: the secret the service was given, if it was given one (unset: the one
                        the service generated and kept in the data dir)
`;

export const VALIDATE_USAGE = `usage: flowsvc validate <flow.json|dir>... [--level N] [--format text|json] [--no-env]

Checks flow files without running them or reaching any server, as Langflow's lfx validate does. A folder is
read recursively for .json files. Exit status: 0 every flow passed, 1 a level failed for one, 2 bad arguments.

levels (--level N runs levels 1 to N; default 4):
  1  structure: a flow with nodes and edges, unique node ids, edges between nodes that exist
  2  component types: every node runs on this service (unknown types, and types it knows but does not run,
     with why; custom code as FLOWSVC_CUSTOM_COMPONENTS allows)
  3  edge types: the outputs and fields edges name exist, and their types are compatible
  4  required inputs and variables: required fields have a value or a connection, variables that fields
     name are set, and empty model fields find a default model

options:
  -l, --level N          the deepest level to check (1 to 4)
  -f, --format FORMAT    text (default: one line per flow, then its issues) or json (a list of reports)
  --no-env               do not look for variables in the environment
  -h, --help             this text

environment:
  OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_API_KEY, OLLAMA_BASE_URL, and any variable a flow names
                         looked for by level 4 (a provider's variable enables it for empty model fields)
  FLOWSVC_DEFAULT_MODEL, FLOWSVC_DEFAULT_EMBEDDING_MODEL
                         the default models empty model fields take
  FLOWSVC_CUSTOM_COMPONENTS
                         custom code nodes are compiled (default false: they do not run)
`;
