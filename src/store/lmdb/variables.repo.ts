/** Variables in LMDB: `variables` by id, `variable_names` [userId, name] as the per-user unique index. */
import type { Database, RootDatabase } from 'lmdb';
import type { VariableRecord } from '../../../protocol/variable.schema.js';
import { NameTakenError } from '../name-taken.error.js';
import type { VariableRepo } from '../port.js';
import { answer } from './answer.js';
import { prefixRange } from './keys.js';

export function lmdbVariables(env: RootDatabase): VariableRepo {
  const variables: Database<VariableRecord, string> = env.openDB({ name: 'variables', encoding: 'msgpack' });
  const names: Database<string, [string, string]> = env.openDB({ name: 'variable_names', encoding: 'msgpack' });

  return {
    get: (id) => answer(() => variables.get(id)),
    getByName: (userId, name) =>
      answer(() => {
        const id = names.get([userId, name]);
        return id ? variables.get(id) : undefined;
      }),
    listByUser: (userId) =>
      answer(() => [...names.getRange(prefixRange(userId))].map(({ value }) => variables.get(value)).filter((v): v is VariableRecord => v !== undefined)),
    // A clash throws before the transaction writes anything (lmdb keeps what a throwing callback already wrote).
    put: (variable, previousName) =>
      env.transaction(() => {
        const holder = names.get([variable.user_id, variable.name]);
        if (holder !== undefined && holder !== variable.id) throw new NameTakenError('name', variable.name);
        if (previousName !== undefined && previousName !== variable.name) names.remove([variable.user_id, previousName]);
        names.put([variable.user_id, variable.name], variable.id);
        variables.put(variable.id, variable);
      }),
    delete: (variable) =>
      env.transaction(() => {
        names.remove([variable.user_id, variable.name]);
        variables.remove(variable.id);
      }),
  };
}
