graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %m_1 : [#users=1] = placeholder[target=m_1]
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %masked_fill : [#users=1] = call_function[target=torch.ops.aten.masked_fill.Scalar](args = (%clone, %m_1, 0.5), kwargs = {})
    %sigmoid : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%masked_fill,), kwargs = {})
    return sigmoid
