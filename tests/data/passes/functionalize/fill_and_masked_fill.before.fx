graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %m_1 : [#users=1] = placeholder[target=m_1]
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %masked_fill_ : [#users=1] = call_function[target=torch.ops.aten.masked_fill_.Scalar](args = (%clone, %m_1, 0.5), kwargs = {})
    %sigmoid_ : [#users=1] = call_function[target=torch.ops.aten.sigmoid_.default](args = (%masked_fill_,), kwargs = {})
    return sigmoid_
