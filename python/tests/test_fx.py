"""airc.from_fx, airc.compile on torch.fx GraphModules and torch tensors,
and airc.get_npu_backend: every model of the conformance generator
(tests/gen_graphs.py) through make_fx -> from_fx -> compile, in the three
modes, against PyTorch (DESIGN.md's tolerance)."""
import gc
import os
import subprocess
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))

import airc  # noqa: E402

try:
    import numpy as np
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
except ImportError:  # pragma: no cover
    torch = None

MODES = ("eager", "reduce-overhead", "max-autotune")


def gen_graphs():
    sys.path.insert(0, os.path.join(REPO, "tests"))
    import gen_graphs as g

    return g


def flat(out):
    if isinstance(out, (tuple, list)):
        return [y for x in out for y in flat(x)]
    return [out]


def assert_close(test, got, want, what):
    """DESIGN.md: rtol 1e-4, atol 1e-4 * (1 + max|expected|); exact for
    integers and bools; same dtype and shape."""
    test.assertIsInstance(got, torch.Tensor, what)
    test.assertEqual(got.dtype, want.dtype, what)
    test.assertEqual(tuple(got.shape), tuple(want.shape), what)
    want = want.detach()
    if not want.dtype.is_floating_point:
        test.assertTrue(torch.equal(got, want), "%s: %s != %s" % (what, got, want))
        return
    finite = want[torch.isfinite(want)]
    scale = float(finite.abs().max()) if finite.numel() else 0.0
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4 * (1 + scale), equal_nan=True,
                               msg=lambda m: "%s: %s" % (what, m))


@unittest.skipIf(torch is None, "no torch")
class TestFromFx(unittest.TestCase):
    def test_seed001_prints_as_torch(self):
        g = gen_graphs()
        fn, make_inputs = g.MODELS["seed001"]
        x = make_inputs()
        gm = make_fx(fn)(*x)
        ag = airc.from_fx(gm)
        self.assertEqual(str(ag), str(gm.graph))
        x_1 = ag.find_node("x_1")
        self.assertEqual(x_1.meta["val"], airc.TensorMeta((3, 3), airc.float32))
        self.assertEqual(ag.find_node("mm").target, torch.ops.aten.mm.default)
        ag.lint()

    def test_every_model_prints_as_torch(self):
        """from_fx keeps names, targets and every argument kind: the text
        is torch.fx's, byte for byte."""
        g = gen_graphs()
        for name, (fn, make_inputs) in g.MODELS.items():
            with self.subTest(model=name):
                torch.manual_seed(g.SEED + sum(map(ord, name)))
                gm = make_fx(fn)(*make_inputs())
                self.assertEqual(str(airc.from_fx(gm)), str(gm.graph))

    def test_every_model_in_every_mode(self):
        g = gen_graphs()
        for name, (fn, make_inputs) in g.MODELS.items():
            torch.manual_seed(g.SEED + sum(map(ord, name)))
            inputs = make_inputs()
            gm = make_fx(fn)(*[t.clone() for t in inputs])
            want = flat(fn(*[t.clone() for t in inputs]))
            for mode in MODES:
                with self.subTest(model=name, mode=mode):
                    config = airc.CompilerConfig()
                    config.mode = mode
                    f = airc.compile(gm, [t.clone() for t in inputs], config)
                    for run in range(2):  # capture, then replay
                        got = flat(f(*[t.clone() for t in inputs]))
                        self.assertEqual(len(got), len(want))
                        for i, (a, b) in enumerate(zip(got, want)):
                            assert_close(self, a, b, "%s %s run %d output %d" %
                                         (name, mode, run, i))

    def test_numpy_in_numpy_out(self):
        g = gen_graphs()
        fn, make_inputs = g.MODELS["mlp"]
        inputs = make_inputs()
        f = airc.compile(make_fx(fn)(*inputs), inputs)
        out = f(*[t.numpy() for t in inputs])  # one result: not a tuple
        self.assertIsInstance(out, np.ndarray)
        assert_close(self, torch.from_numpy(out), fn(*inputs), "mlp numpy")

    def test_dlpack_and_buffer_inputs(self):
        class DLPackOnly:
            def __init__(self, a):
                self.a = a

            def __dlpack__(self, stream=None):
                return self.a.__dlpack__()

            def __dlpack_device__(self):
                return self.a.__dlpack_device__()

        gm = make_fx(lambda a: a.add_(1))(torch.zeros(3))  # writes its input
        c = airc.CompilerConfig()
        c.mode = "eager"
        f = airc.compile(gm, None, c)
        a = np.zeros(3, dtype=np.float32)
        if hasattr(np, "from_dlpack") and hasattr(a, "__dlpack__"):
            out = f(DLPackOnly(a))
            self.assertIsInstance(out, np.ndarray)
            np.testing.assert_array_equal(a, [1, 1, 1])  # no copy: written in place
        b = bytearray(np.zeros(3, dtype=np.float32).tobytes())
        view = np.frombuffer(b, dtype=np.float32)  # the buffer protocol
        f(memoryview(b).cast("f"))
        np.testing.assert_array_equal(view, [1, 1, 1])

    def test_parameters_as_constants_and_lifted(self):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                    torch.nn.Linear(16, 4))
        model.register_buffer("shift", torch.arange(4, dtype=torch.float32))

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.net = model

            def forward(self, x):
                return self.net(x) + self.net.shift

        m = M().eval()
        x = torch.randn(5, 8)
        with torch.no_grad():
            gm = make_fx(m)(x)
            want = m(x)
        attrs = [n.target for n in gm.graph.nodes if n.op == "get_attr"]
        self.assertGreaterEqual(len(attrs), 5)  # two weights, two biases, the buffer
        # bound as constants, sharing the parameters' memory
        ag = airc.from_fx(gm)
        self.assertEqual(str(ag), str(gm.graph))
        from airc import _fx

        self.assertGreaterEqual(len(_fx._constants), len(attrs))
        for mode in MODES:
            c = airc.CompilerConfig()
            c.mode = mode
            f = airc.compile(ag, [x], c)
            assert_close(self, f(x), want, mode)
        # zero copy: airc reads the parameter's memory, so an in-place update
        # shows in an eager compile (max-autotune copies constants into the
        # ModelDef when it lowers)
        c = airc.CompilerConfig()
        c.mode = "eager"
        f = airc.compile(ag, [x], c)
        with torch.no_grad():
            m.net.shift.add_(1.0)
            want2 = m(x)
        assert_close(self, f(x), want2, "live")
        # copied constants do not see it
        fc = airc.compile(airc.from_fx(gm, copy_constants=True), [x], c)
        with torch.no_grad():
            m.net.shift.sub_(1.0)
        assert_close(self, fc(x), want2, "copy")
        # lifted: placeholders after x, passed by compile as static inputs
        lg = airc.from_fx(gm, lift_constants=True)
        names = [n.name for n in lg.nodes if n.op == "placeholder"]
        self.assertEqual(len(names), 1 + len(lg.lifted_constants))
        self.assertEqual(names[0], [n.name for n in gm.graph.nodes if n.op == "placeholder"][0])
        self.assertEqual(sum(1 for n in lg.nodes if n.op == "get_attr"), 0)
        for mode in MODES:
            c = airc.CompilerConfig()
            c.mode = mode
            f = airc.compile(gm, [x], c, lift_constants=True)
            for _ in range(2):
                assert_close(self, f(x), want, "lifted " + mode)
            with self.assertRaises(airc.Error):
                f(x, x)
        # the constants die with the last graph using them
        del ag, f, fc, lg
        gc.collect()
        self.assertEqual(_fx._constants, {})

    def test_errors(self):
        gm = torch.fx.symbolic_trace(torch.nn.Linear(3, 3))  # call_module / torch level
        with self.assertRaises(TypeError) as cm:
            airc.from_fx(gm)
        self.assertIn("make_fx", str(cm.exception))
        with self.assertRaises(TypeError):
            airc.from_fx("not a module")
        # an op airc does not know: the error names the node
        gm = make_fx(lambda x: torch.ops.aten.logit_backward.default(x, x))(torch.rand(3))
        with self.assertRaises(airc.Error) as cm:
            airc.from_fx(gm)
        self.assertEqual(cm.exception.status_name, "AIRC_E_NOT_FOUND")
        self.assertIn("logit_backward", cm.exception.message)
        self.assertIn("from_fx: node", cm.exception.message)

    def test_torch_in_torch_out_zero_copy_input(self):
        # an in-place op on an input writes the caller's tensor: the input
        # crossed without a copy
        def f(x):
            x.add_(1)
            return x * 2

        x = torch.zeros(4)
        gm = make_fx(f)(x.clone())
        c = airc.CompilerConfig()
        c.mode = "eager"
        comp = airc.compile(gm, [x], c)
        out = comp(x)
        self.assertIsInstance(out, torch.Tensor)
        self.assertTrue(torch.equal(out, torch.full((4,), 2.0)))
        self.assertTrue(torch.equal(x, torch.ones(4)))
        # bfloat16 crosses as torch
        gm = make_fx(lambda a: a * 2)(torch.ones(3, dtype=torch.bfloat16))
        out = airc.compile(gm, None, c)(torch.ones(3, dtype=torch.bfloat16))
        self.assertEqual(out.dtype, torch.bfloat16)
        self.assertTrue(torch.equal(out.float(), torch.full((3,), 2.0)))

    def test_pass_on_a_torch_module(self):
        sys.path.insert(0, HERE)
        from test_airc import multistream_pass

        g = gen_graphs()
        fn, make_inputs = g.MODELS["seed001"]
        x = make_inputs()[0]
        c = airc.CompilerConfig()
        c.post_grad_custom_pre_pass = multistream_pass
        f = airc.compile(make_fx(fn)(x), [x], c)
        for got, want in zip(f(x), fn(x)):
            assert_close(self, got, want, "seed001 with the pass")
        self.assertEqual(f.stats()["streams"], 2)
        names = [n.name for n in f.graph.nodes]
        self.assertIn("scope_enter", names)
        self.assertIn("wait", names)

    def test_threads(self):
        g = gen_graphs()
        fn, make_inputs = g.MODELS["attention"]
        inputs = make_inputs()
        gm = make_fx(fn)(*inputs)
        compiled = {}
        for mode in MODES:
            c = airc.CompilerConfig()
            c.mode = mode
            compiled[mode] = airc.compile(gm, inputs, c)
        errors = []

        def work(seed):
            try:
                gen = torch.Generator().manual_seed(seed)
                for i in range(10):
                    x = torch.randn(inputs[0].shape, generator=gen)
                    args = [x] + inputs[1:]
                    want = fn(*args)
                    for mode, f in compiled.items():
                        assert_close(self, f(*args), want, "thread %d %s" % (seed, mode))
            except BaseException as e:  # noqa: B036
                errors.append(e)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])


@unittest.skipIf(torch is None, "no torch")
class TestBackend(unittest.TestCase):
    def test_backend_by_hand(self):
        """Without torch.compile (torch 1.x): the backend traces a
        torch-level GraphModule with make_fx, then compiles it."""
        g = gen_graphs()
        fn, make_inputs = g.MODELS["seed001"]
        x = make_inputs()
        config = airc.CompilerConfig()
        config.mode = "reduce-overhead"
        backend = airc.get_npu_backend(compiler_config=config)
        self.assertIs(backend.compiler_config, config)

        class Model(torch.nn.Module):
            def forward(self, x):
                return fn(x)

        gm = torch.fx.symbolic_trace(Model())
        if airc._backend.torch_major() >= 2:
            self.skipTest("torch >= 2: covered by test_torch_compile")
        f = backend(gm, x)
        for got, want in zip(f(*x), fn(*x)):
            assert_close(self, got, want, "backend")
        with self.assertRaises(TypeError):
            airc.get_npu_backend(compiler_config="eager")

    @unittest.skipIf(torch is not None and not torch.__version__.split(".")[0].isdigit() or
                     torch is not None and int(torch.__version__.split(".")[0]) < 2,
                     "torch.compile needs torch >= 2 (this is torch %s)" %
                     (torch.__version__ if torch is not None else "-"))
    def test_torch_compile(self):
        sys.path.insert(0, HERE)
        from test_airc import multistream_pass

        class Model(torch.nn.Module):
            def forward(self, x):
                mm = torch.mm(x, x)
                abs = torch.abs(mm)
                add = torch.add(abs, 1)
                sub = torch.sub(x, mm)
                return add, sub

        for mode in MODES:
            config = airc.CompilerConfig()
            config.mode = mode
            config.post_grad_custom_pre_pass = multistream_pass
            torch._dynamo.reset()
            opt = torch.compile(Model(), backend=airc.get_npu_backend(compiler_config=config),
                                dynamic=False)
            x = torch.randn(3, 3)
            for got, want in zip(opt(x), Model()(x)):
                assert_close(self, got, want, "torch.compile " + mode)


@unittest.skipIf(torch is None, "no torch")
class TestExample(unittest.TestCase):
    def test_multistream_example(self):
        import tempfile

        script = os.path.join(REPO, "examples", "python", "multistream.py")
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.path.join(REPO, "python")
            r = subprocess.run([sys.executable, script, "--out", d], env=env,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("air.scope_enter.default", r.stdout)
            self.assertIn("multistream.py: ok", r.stdout)
            files = sorted(os.listdir(d))
            self.assertIn("trace.json", files)
            dumps = [f for f in os.listdir(os.path.join(d, "graph_dump")) if
                     f.endswith(".pbtxt")]
            self.assertTrue(dumps, files)
            with open(os.path.join(d, "graph_dump", dumps[0])) as f:
                self.assertIn("_user_stream_label", f.read())


if __name__ == "__main__":
    unittest.main()
