# A checker in the style a user would write in Python: json.loads per line, jsonschema.validate per call.
import json
import sys

import jsonschema

def main(path, contracts_dir):
    def read(name):
        with open(f"{contracts_dir}/{name}") as f:
            return json.load(f)
    schemas = {k: v["arguments"] for k, v in read("hours.contract.json")["tools"].items()}
    schemas.update({k: v["arguments"] for k, v in read("rooms.contract.json")["tools"].items()})
    schemas["get_weather"] = read("weather.tools.json")[0]["function"]["parameters"]
    calls = invalid = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            doc = json.loads(line)
            for m in doc["messages"]:
                for tc in m.get("tool_calls") or []:
                    calls += 1
                    schema = schemas.get(tc["function"]["name"])
                    if schema is None:
                        continue
                    try:
                        jsonschema.validate(json.loads(tc["function"]["arguments"]), schema)
                    except jsonschema.ValidationError:
                        invalid += 1
    print(json.dumps({"calls": calls, "invalid": invalid}))

main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "fixtures/contracts")
