using System.Collections.Concurrent;
using System.ServiceModel;

namespace RpcCompare.Samples.Services.Orders;

/// <summary>Keeps the most recent orders in memory (a bounded window, so a long measurement does not grow it without end).</summary>
public sealed class OrderService : IOrderService
{
    private const int Kept = 1024;
    private readonly ConcurrentDictionary<int, Order> _orders = new();
    private int _last;

    public Task<int> PlaceOrderAsync(Order order)
    {
        if (order.Lines.Count == 0 || order.Lines.Any(l => l.Quantity < 1))
        {
            throw new FaultException<OrderFault>(new OrderFault { Reason = "an order needs lines of at least one item each" }, "invalid order");
        }

        var number = Interlocked.Increment(ref _last);
        _orders[number] = order;
        _orders.TryRemove(number - Kept, out _);
        return Task.FromResult(number);
    }

    public Task<Order> GetOrderAsync(int orderNumber) => _orders.TryGetValue(orderNumber, out var order)
        ? Task.FromResult(order)
        : throw new FaultException<OrderFault>(new OrderFault { Reason = $"no order {orderNumber}" }, "unknown order");
}
