graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %sub_ : [#users=1] = call_function[target=torch.ops.aten.sub_.Tensor](args = (%y_1, %x_1), kwargs = {})
    %neg_ : [#users=1] = call_function[target=torch.ops.aten.neg_.default](args = (%x_1,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg_, %sub_), kwargs = {})
    return add
