/**
 * The script evaluated in every sandbox after the component's own: it takes the module's default export, and
 * defines the two functions the host calls. Every value crosses the boundary as JSON text, parsed on the other side,
 * so no object of one side is ever reachable from the other. The functions are read once by the host, so a
 * component that later overwrites these globals changes nothing the host calls.
 */
import { EXPORTS_GLOBAL } from './component-source.js';

export const HARNESS = `(function () {
  var exported = globalThis.${EXPORTS_GLOBAL};
  delete globalThis.${EXPORTS_GLOBAL};
  var component = exported && exported.default !== undefined ? exported.default : exported;
  var stringify = JSON.stringify, parse = JSON.parse;
  var current = null;
  function describe() {
    if (component === null || typeof component !== 'object') return stringify({ notAnObject: typeof component });
    return stringify({ definition: component, runType: typeof component.run });
  }
  function invoke(inputsJson, contextJson) {
    var state = { done: false };
    current = state;
    Promise.resolve()
      .then(function () { return component.run(parse(inputsJson), parse(contextJson)); })
      .then(
        function (value) {
          try { state.value = stringify({ value: value === undefined ? null : value }); } catch (error) { state.error = 'run() returned a value that is not JSON: ' + String(error && error.message); }
          state.done = true;
        },
        function (error) { state.error = error instanceof Error ? String(error.message) : String(error); state.done = true; }
      );
  }
  function outcome() {
    if (!current || !current.done) return '';
    return stringify(current.error !== undefined ? { error: current.error } : { json: current.value });
  }
  return [describe, invoke, outcome];
})()`;
