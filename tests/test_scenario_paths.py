"""What a scenario file may name (``ruleset:``, a scenario's ``variant:``): ruleset files
(.yaml, .yml) in its folder or below it, or in the folder just above it, or a bundled ruleset;
and a name the system cannot look up (too long) is a located error that stops one file only
(docs/security.md, docs/reference.md "Scenario tests")."""
from interpreter import ruleset_path

DIAMONDS = ruleset_path("diamonds")
ONE = "scenarios:\n  - {name: a, players: 3, expect: ['true']}\n"
SECRET = "machine example.com login bob password s3cr3tpw"
LONG = "a" * 300   # longer than a file name may be (255 bytes on the usual file systems)


def test_a_scenario_file_reads_no_file_but_a_ruleset_file_even_in_the_folder_just_above(cli, tmp_path):
    """The folder just above a scenario file is a home folder when the file was saved to
    ~/Downloads: ``ruleset: ../.netrc`` (or a link named .yaml to it) is refused by its name
    alone, whatever the file holds and whether it exists, and a variant too."""
    home, down = tmp_path / "home", tmp_path / "home" / "Downloads"
    down.mkdir(parents=True)
    (home / ".netrc").write_text(SECRET + "\n")
    (home / "credentials").write_text("[default]\nkey = " + SECRET + "\n")
    (home / "link.yaml").symlink_to(home / ".netrc")
    (home / "game.yaml").write_text(DIAMONDS.read_text())
    sc = down / "s.yaml"
    for name in ("../.netrc", "../credentials", "../nothing", "../link.yaml"):
        sc.write_text(f"ruleset: {name}\n" + ONE)
        code, out, err = cli("test", sc)
        assert code == 1 and err.startswith(f"{sc}:1:10: error[io]: ruleset '{name}' is neither a ruleset file "
                                            "(.yaml, .yml) beside this scenario file nor a bundled ruleset"), err
        assert "s3cr3t" not in out + err
    for name in ("../.netrc", "../link.yaml"):
        sc.write_text(f"ruleset: ../game.yaml\nscenarios:\n  - {{name: b, players: 3, variant: {name}}}\n")
        code, out, err = cli("test", sc)
        assert code == 1 and out.startswith(f"{sc}:3:36: FAIL b: variant '{name}' is no variant file (.yaml, .yml) "
                                            "in the folders a scenario file may name"), out
        assert "s3cr3t" not in out + err
    sc.write_text("ruleset: ../game.yaml\n" + ONE)   # a ruleset file just above: the layout of rulesets/scenarios/
    assert cli("test", sc)[:2] == (0, "1 passed, 0 failed\n")


def test_a_ruleset_just_above_extends_by_its_own_rule_and_a_scenario_reaches_no_deeper(cli, tmp_path):
    """proj/scenarios/s.yaml names ../v.yaml, which extends other/deep/game.yaml: v.yaml's own
    extends: reaches there (its folder and below); the scenario file naming that file does not."""
    (tmp_path / "proj" / "scenarios").mkdir(parents=True)
    (tmp_path / "proj" / "other" / "deep").mkdir(parents=True)
    (tmp_path / "proj" / "other" / "deep" / "game.yaml").write_text(DIAMONDS.read_text())
    (tmp_path / "proj" / "v.yaml").write_text("extends: other/deep/game.yaml\n")
    sc = tmp_path / "proj" / "scenarios" / "s.yaml"
    sc.write_text("ruleset: ../v.yaml\n" + ONE)
    assert cli("test", sc)[:2] == (0, "1 passed, 0 failed\n")
    sc.write_text("ruleset: ../other/deep/game.yaml\n" + ONE)
    code, _, err = cli("test", sc)
    assert code == 1 and "ruleset '../other/deep/game.yaml' is outside the folders a scenario file may name" in err


def test_a_name_too_long_is_a_located_error_and_the_next_scenario_file_runs(cli, tmp_path):
    """A 300-character ruleset:, variant: (a name, a .yaml file) or extends: of a variant file is
    not found, located where it is written; rulebook test FOLDER goes on to its next files."""
    (tmp_path / "game.yaml").write_text(DIAMONDS.read_text())
    (tmp_path / "v_ext.yaml").write_text(f"extends: {LONG}\n")
    files = {"a_ok": "ruleset: game.yaml\n" + ONE,
             "b_ruleset": f"ruleset: {LONG}\n" + ONE,
             "c_variant": f"ruleset: game.yaml\nscenarios:\n  - {{name: c, players: 3, variant: {LONG}}}\n",
             "d_variant_file": f"ruleset: game.yaml\nscenarios:\n  - {{name: d, players: 3, variant: {LONG}.yaml}}\n",
             "e_extends": "ruleset: game.yaml\nscenarios:\n  - {name: e, players: 3, variant: v_ext.yaml}\n",
             "f_ok": "ruleset: game.yaml\n" + ONE}
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    code, out, err = cli("test", tmp_path)
    assert code == 1 and out.endswith("2 passed, 4 failed\n"), (out, err)
    assert "too long" not in out + err and "rulebook: error" not in err
    assert err.startswith(f"{tmp_path / 'b_ruleset.yaml'}:1:10: error[io]: ruleset '{LONG}' is neither a ruleset file")
    said = {f"{tmp_path / name}.yaml:3:5": line.split(": FAIL ")[1] for line in out.splitlines() if ": FAIL " in line
            for name in files if line.startswith(f"{tmp_path / name}.yaml:3:5")}
    assert said[f"{tmp_path / 'c_variant'}.yaml:3:5"].startswith(f"c: unknown variant '{LONG}'")
    assert said[f"{tmp_path / 'd_variant_file'}.yaml:3:5"] == f"d: variant file '{LONG}.yaml' not found"
    assert said[f"{tmp_path / 'e_extends'}.yaml:3:5"] == f"e: extends: file '{LONG}' not found"
    code, _, err = cli("validate", tmp_path / "v_ext.yaml")   # and where a ruleset extends
    assert code == 1 and err.startswith(f"{tmp_path / 'v_ext.yaml'}:1:10: error[extends]: extends: file '{LONG}' not found")


def test_a_file_the_system_fails_to_read_stops_that_file_only(cli, tmp_path, monkeypatch):
    """Whatever OSError one scenario file meets, rulebook test FOLDER says so at that file and
    runs the next ones, then its summary."""
    from interpreter.play.checks import scenarios
    (tmp_path / "game.yaml").write_text(DIAMONDS.read_text())
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.yaml").write_text("ruleset: game.yaml\n" + ONE)
    run_file = scenarios.run_file

    def failing(path):
        if path.name == "b.yaml":
            raise PermissionError(13, "Permission denied")
        return run_file(path)
    monkeypatch.setattr(scenarios, "run_file", failing)
    code, out, err = cli("test", tmp_path)
    assert (code, out, err) == (1, "2 passed, 1 failed\n", f"{tmp_path / 'b.yaml'}: error: Permission denied\n")
