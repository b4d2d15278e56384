graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %constant_pad_nd : [#users=2] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%x_1, [1, 2, 0, 1], 0.5), kwargs = {})
    %tril : [#users=1] = call_function[target=torch.ops.aten.tril.default](args = (%constant_pad_nd,), kwargs = {})
    %triu : [#users=1] = call_function[target=torch.ops.aten.triu.default](args = (%constant_pad_nd, 1), kwargs = {})
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%tril, %triu), kwargs = {})
    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})
    %stack : [#users=1] = call_function[target=torch.ops.aten.stack.default](args = ([%x_1, %neg],), kwargs = {})
    return (sub, stack)
