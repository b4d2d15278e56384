graph():
    %x_1 : [#users=4] = placeholder[target=x_1]
    %y_1 : [#users=3] = placeholder[target=y_1]
    %gt : [#users=3] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x_1, 0), kwargs = {})
    %lt : [#users=2] = call_function[target=torch.ops.aten.lt.Scalar](args = (%y_1, 0.25), kwargs = {})
    %logical_and : [#users=1] = call_function[target=torch.ops.aten.logical_and.default](args = (%gt, %lt), kwargs = {})
    %where : [#users=1] = call_function[target=torch.ops.aten.where.self](args = (%logical_and, %x_1, %y_1), kwargs = {})
    %bitwise_not : [#users=1] = call_function[target=torch.ops.aten.bitwise_not.default](args = (%gt,), kwargs = {})
    %masked_fill : [#users=1] = call_function[target=torch.ops.aten.masked_fill.Scalar](args = (%where, %bitwise_not, -1.0), kwargs = {})
    %eq : [#users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%x_1, %y_1), kwargs = {})
    %ne : [#users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%x_1, 0.5), kwargs = {})
    %logical_or : [#users=1] = call_function[target=torch.ops.aten.logical_or.default](args = (%gt, %lt), kwargs = {})
    return (masked_fill, eq, ne, logical_or)
