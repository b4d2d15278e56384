graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %_softmax : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x_1, 1, False), kwargs = {})
    %_log_softmax : [#users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%x_1, -1, False), kwargs = {})
    %_softmax_1 : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x_1, 0, False), kwargs = {})
    return (_softmax, _log_softmax, _softmax_1)
