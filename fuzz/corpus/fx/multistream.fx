graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %scope_enter : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args = ([_user_stream_label], [stream_1]), kwargs = {})
    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %x_1), kwargs = {})
    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), kwargs = {})
    %record : [#users=1] = call_function[target=torch.ops.air.record.default](args = (), kwargs = {})
    %scope_exit : [#users=0] = call_function[target=torch.ops.air.scope_exit.default](args = (), kwargs = {})
    %wait : [#users=0] = call_function[target=torch.ops.air.wait.default](args = ([%record],), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, 1), kwargs = {})
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %mm), kwargs = {})
    return (add, sub)
