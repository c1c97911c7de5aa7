"""An adapter that does nothing: it accepts every command, answers every
observation with nothing and declares no capabilities. Issue 24 found such
an adapter of about fifteen lines passing 24 cases of suite 1.2; the suite
must pass it on none (``test_verdicts.py``)."""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "stop":
            break
        if message["type"] == "start":
            rulesets = ["2019", "2019-classic", "premium", "online"]
            reply = {
                "type": "started",
                "protocol": 1,
                "implementation": {"name": "do-nothing"},
                "rulesets": rulesets,
                "capabilities": [],
            }
        else:
            steps: list[dict[str, object]] = [
                {"observation": {}} if "observe" in step else {"events": []}
                for step in message["case"]["steps"]
            ]
            reply = {"type": "result", "seq": message["seq"], "start_events": [], "steps": steps}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
